package audit

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// Where the trail lives under the data dir, and its bounds by default.
const (
	Dir             = "audit"
	File            = "audit.jsonl"
	DefaultMaxBytes = 8 << 20 // per file
	DefaultKeep     = 4       // rotated files kept beside the current one
	MaxPending      = 1 << 16 // lines buffered before Add waits for the writer
	minMaxBytes     = 4096
	// Linger is how long the writer lets lines gather after the first of
	// a batch, so that a busy daemon writes many with one write rather
	// than one each; a line is in the file at most Linger after it was
	// added (plus the write).
	Linger = time.Millisecond
	// lingerLines is a batch large enough to write without lingering.
	lingerLines = 256
)

// Options bound the trail.
type Options struct {
	MaxBytes int64 // one file's size before it rotates; 0: DefaultMaxBytes
	Keep     int   // rotated files kept; 0: DefaultKeep
	Log      *slog.Logger
}

// Log is the audit trail being written.
type Log struct {
	dir  string
	opts Options

	mu      sync.Mutex
	wake    *sync.Cond // the writer waits for lines or Close
	room    *sync.Cond // Add waits for the writer to catch up
	pending []messages.AuditRecord
	closing bool
	done    chan struct{}
	added   int64    // lines added since Open
	written int64    // lines the writer has handed to the file
	waiters []waiter // Flush calls waiting for the writer

	acts, controls atomic.Int64 // lines written, by kind

	// The writer's own, touched only by its goroutine.
	f    *os.File
	size int64
	buf  []byte
	line []byte // the line being written
}

// Open opens (or creates) the trail under dataDir and starts its writer.
func Open(dataDir string, o Options) (*Log, error) {
	if o.MaxBytes == 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxBytes < minMaxBytes {
		o.MaxBytes = minMaxBytes
	}
	if o.Keep <= 0 {
		o.Keep = DefaultKeep
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	dir := filepath.Join(dataDir, Dir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	l := &Log{dir: dir, opts: o, done: make(chan struct{})}
	l.wake, l.room = sync.NewCond(&l.mu), sync.NewCond(&l.mu)
	if err := l.open(); err != nil {
		return nil, err
	}
	go l.run()
	return l, nil
}

// Written is how many act and control lines the writer has handed to the
// file since Open (lines rotated away since included).
func (l *Log) Written() (acts, controls int64) { return l.acts.Load(), l.controls.Load() }

// Path is the current file of the trail.
func (l *Log) Path() string { return filepath.Join(l.dir, File) }

// Add queues r for the trail. It waits only when the writer is MaxPending
// lines behind; after Close it drops r (the daemon adds nothing then).
func (l *Log) Add(r *messages.AuditRecord) {
	l.mu.Lock()
	for len(l.pending) >= MaxPending && !l.closing {
		l.room.Wait()
	}
	if l.closing {
		l.mu.Unlock()
		l.opts.Log.Warn("audit line after close dropped", "action", r.Action)
		return
	}
	l.pending = append(l.pending, *r)
	l.added++
	if len(l.pending) == 1 {
		l.wake.Signal()
	}
	l.mu.Unlock()
}

// Close writes every line added so far, syncs the file and stops the writer.
func (l *Log) Close() error {
	l.mu.Lock()
	l.closing = true
	l.wake.Signal()
	l.room.Broadcast()
	l.mu.Unlock()
	<-l.done
	if l.f == nil {
		return nil
	}
	return errors.Join(l.f.Sync(), l.f.Close())
}

func (l *Log) run() {
	defer close(l.done)
	var spare []messages.AuditRecord
	for {
		l.mu.Lock()
		for len(l.pending) == 0 && !l.closing {
			l.wake.Wait()
		}
		if len(l.pending) < lingerLines && !l.closing {
			l.mu.Unlock()
			time.Sleep(Linger)
			l.mu.Lock()
		}
		batch, closing := l.pending, l.closing
		l.pending = spare[:0]
		l.room.Broadcast()
		l.mu.Unlock()
		l.write(batch)
		l.wrote(len(batch))
		spare = batch
		if closing && len(batch) == 0 {
			return
		}
	}
}

// waiter is a Flush waiting until the writer has written line at.
type waiter struct {
	at   int64
	done chan struct{}
}

// Flush waits until every line added before it is in the file (or ctx
// ends): a read after Flush sees them.
func (l *Log) Flush(ctx context.Context) error {
	l.mu.Lock()
	if l.written >= l.added {
		l.mu.Unlock()
		return nil
	}
	w := waiter{at: l.added, done: make(chan struct{})}
	l.waiters = append(l.waiters, w)
	l.mu.Unlock()
	select {
	case <-w.done:
		return nil
	case <-l.done:
		return nil // closed: everything added was written
	case <-ctx.Done():
		return ctx.Err()
	}
}

// wrote counts n lines written and wakes the Flush calls they satisfy.
func (l *Log) wrote(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.written += int64(n)
	kept := l.waiters[:0]
	for _, w := range l.waiters {
		if w.at <= l.written {
			close(w.done)
			continue
		}
		kept = append(kept, w)
	}
	l.waiters = kept
}

// write appends batch, rotating before a line would pass the bound.
func (l *Log) write(batch []messages.AuditRecord) {
	l.buf = l.buf[:0]
	for i := range batch {
		var ok bool
		if l.line, ok = batch[i].AppendJSON(l.line[:0]); !ok {
			continue // only a time past year 9999 is not written
		}
		if l.size+int64(len(l.buf)+len(l.line)) > l.opts.MaxBytes && l.size+int64(len(l.buf)) > 0 {
			l.flush()
			l.rotate()
		}
		l.buf = append(l.buf, l.line...)
		if batch[i].Kind == messages.AuditAct {
			l.acts.Add(1)
		} else {
			l.controls.Add(1)
		}
	}
	l.flush()
}

func (l *Log) flush() {
	if len(l.buf) == 0 {
		return
	}
	if l.f == nil {
		if err := l.open(); err != nil {
			l.opts.Log.Error("audit lines not written", "lines", len(l.buf), "err", err)
			l.buf = l.buf[:0]
			return
		}
	}
	n, err := l.f.Write(l.buf)
	l.size += int64(n)
	if err != nil {
		l.opts.Log.Error("audit write failed", "err", err)
	}
	l.buf = l.buf[:0]
}

// rotate shifts audit.jsonl.k to .k+1, dropping the oldest beyond Keep,
// and starts a new current file.
func (l *Log) rotate() {
	if l.f != nil {
		_ = l.f.Close()
		l.f = nil
	}
	name := func(k int) string { return filepath.Join(l.dir, File+"."+strconv.Itoa(k)) }
	_ = os.Remove(name(l.opts.Keep))
	for k := l.opts.Keep - 1; k >= 1; k-- {
		_ = os.Rename(name(k), name(k+1))
	}
	if err := os.Rename(l.Path(), name(1)); err != nil && !errors.Is(err, os.ErrNotExist) {
		l.opts.Log.Error("audit rotation failed", "err", err)
	}
	if err := l.open(); err != nil {
		l.opts.Log.Error("audit file not reopened", "err", err)
	}
}

func (l *Log) open() error {
	f, err := os.OpenFile(l.Path(), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	st, err := f.Stat()
	if err == nil && st.Mode().Perm() != 0o600 {
		err = f.Chmod(0o600)
	}
	if err != nil {
		_ = f.Close()
		return fmt.Errorf("audit: %w", err)
	}
	l.f, l.size = f, st.Size()
	return nil
}
