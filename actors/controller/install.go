package controller

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// installWait bounds one browser install (a download of about 150 MB).
const installWait = 15 * time.Minute

// maxInstallLines bounds the progress lines an install keeps.
const maxInstallLines = 200

// install is where the browser install stands. It outlives the controller's
// restarts (it lives in Carry) and is written by the install's goroutine,
// so it has its own lock.
type install struct {
	mu sync.Mutex
	st messages.InstallState
}

func (in *install) state() *messages.InstallState {
	in.mu.Lock()
	defer in.mu.Unlock()
	st := in.st
	st.Lines = append([]string(nil), in.st.Lines...)
	if st.State == "" {
		st.State = messages.InstallIdle
	}
	return &st
}

// begin marks an install started, unless one runs: then it says so.
func (in *install) begin(now time.Time) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.st.State == messages.InstallRunning {
		return false
	}
	in.st = messages.InstallState{State: messages.InstallRunning, Started: now}
	return true
}

func (in *install) line(s string) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if len(in.st.Lines) == maxInstallLines {
		in.st.Lines = in.st.Lines[1:]
	}
	in.st.Lines = append(in.st.Lines, s)
}

func (in *install) end(err error, now time.Time) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.st.State, in.st.Ended = messages.InstallDone, now
	if err != nil {
		in.st.State, in.st.Problem = messages.InstallFailed, messages.ErrorOf(err, messages.CodeNoBrowser).Message
	}
}

// install starts the browser install through the mode, off the mailbox, and
// answers with where it stands; progress goes out as events.
func (a *Actor) install(ctx actor.Context) {
	inst, ok := drivers.Current(a.cfg.Mode).(drivers.Installer)
	if !ok {
		ctx.Respond(fail(messages.Errorf(messages.CodeUnsupported,
			"The %s mode has no browser to install.", a.cfg.Mode.Name())))
		return
	}
	in := &a.cfg.Carry.install
	if in.begin(a.cfg.Now()) {
		go runInstall(inst, in, a.cfg.Bus, a.cfg.Now)
	}
	ctx.Respond(&messages.OwnerReply{Result: in.state()})
}

func runInstall(inst drivers.Installer, in *install, bus *events.Bus, now func() time.Time) {
	c, cancel := context.WithTimeout(context.Background(), installWait)
	defer cancel()
	w := &progressLines{emit: func(s string) {
		in.line(s)
		bus.Publish(&messages.InstallChanged{State: *in.state()})
	}}
	err := inst.Install(c, w)
	w.flush()
	in.end(err, now())
	bus.Publish(&messages.InstallChanged{State: *in.state()})
}

// progressLines turns what an install writes into lines.
type progressLines struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	emit func(string)
}

func (p *progressLines) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.buf.Write(b)
	for {
		i := bytes.IndexByte(p.buf.Bytes(), '\n')
		if i < 0 {
			return len(b), nil
		}
		line := strings.TrimSpace(string(p.buf.Next(i + 1)))
		if line != "" {
			p.emit(line)
		}
	}
}

func (p *progressLines) flush() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if line := strings.TrimSpace(p.buf.String()); line != "" {
		p.emit(line)
	}
	p.buf.Reset()
}
