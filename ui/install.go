package ui

import (
	"bytes"
	"context"
	"io"
	"sync"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/messages"
)

// Bounds of a browser install started from the dashboard.
const (
	installWait  = 15 * time.Minute
	installLines = 40 // the last lines kept for the page
)

// installer runs one browser install at a time and keeps its progress,
// which every dashboard sees through its events socket.
type installer struct {
	run    func(ctx context.Context, progress io.Writer) error
	notify func() // tells the sockets the progress changed

	mu     sync.Mutex
	state  messages.Install
	cancel context.CancelFunc
	done   chan struct{}
}

func newInstaller(run func(context.Context, io.Writer) error, notify func()) *installer {
	return &installer{run: run, notify: notify}
}

// current is the progress as it is now, or nil before any install.
func (in *installer) current() *messages.Install {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.state.Started.IsZero() {
		return nil
	}
	st := in.state
	st.Lines = append([]string(nil), st.Lines...)
	return &st
}

// start begins an install unless one runs; false when one already does.
func (in *installer) start(now time.Time) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.state.Running {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), installWait)
	in.state = messages.Install{Running: true, Started: now, Lines: []string{}}
	in.cancel, in.done = cancel, make(chan struct{})
	go in.work(ctx, cancel, in.done)
	return true
}

func (in *installer) work(ctx context.Context, cancel context.CancelFunc, done chan struct{}) {
	defer close(done)
	defer cancel()
	err := in.run(ctx, lineWriter{in})
	in.mu.Lock()
	in.state.Running, in.state.Done = false, true
	if err != nil {
		in.state.Error = messages.ErrorOf(err, messages.CodeNoBrowser)
	}
	in.mu.Unlock()
	in.notify()
}

// line adds one line of the installer's output.
func (in *installer) line(l string) {
	in.mu.Lock()
	in.state.Lines = append(in.state.Lines, l)
	if n := len(in.state.Lines) - installLines; n > 0 {
		in.state.Lines = append([]string(nil), in.state.Lines[n:]...)
	}
	in.mu.Unlock()
	in.notify()
}

// stop cancels a running install and waits for it.
func (in *installer) stop() {
	in.mu.Lock()
	cancel, done := in.cancel, in.done
	in.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

// lineWriter splits the installer's output into lines.
type lineWriter struct{ in *installer }

func (w lineWriter) Write(p []byte) (int, error) {
	for _, l := range bytes.Split(bytes.TrimRight(p, "\n"), []byte("\n")) {
		if l = bytes.TrimSpace(l); len(l) > 0 {
			w.in.line(clip(string(l)))
		}
	}
	return len(p), nil
}

func (s *Server) installState(ctx *fasthttp.RequestCtx, _ *caller, _ *messages.OwnerBody) {
	st := s.install.current()
	if st == nil {
		st = &messages.Install{Lines: []string{}}
	}
	writeOK(ctx, st)
}

// installStart is POST /api/browser/install: it answers at once, and the
// progress follows over the events socket.
func (s *Server) installStart(ctx *fasthttp.RequestCtx, who *caller, b *messages.OwnerBody) {
	if s.install.run == nil {
		writeError(ctx, messages.NotAvailable("Installing the browser from the dashboard", "run `buddi browser install` on the computer buddi runs on."))
		return
	}
	if !s.install.start(s.cfg.Now()) {
		writeError(ctx, &messages.Error{Code: messages.CodeBusy, Message: "An install is already running; its progress is on the settings page."})
		return
	}
	s.installState(ctx, who, b)
}
