package session

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/buddi-dev/buddi/actors"
)

// Work is what the sessions of one daemon run off their mailboxes: an act,
// a picture, closing tabs. A daemon shutting down ends it once no session
// is left: pictures still waiting for a core are dropped (no surface is
// left to show them), and the rest is waited for.
type Work struct {
	wg       sync.WaitGroup
	quit     chan struct{}
	once     sync.Once
	pictures atomic.Int64 // the owner's pictures taken or being scaled now
}

// NewWork returns the work of one daemon's sessions.
func NewWork() *Work { return &Work{quit: make(chan struct{})} }

// Go runs f off the mailbox, counted, on a warm goroutine; a nil Work
// runs it uncounted.
func (w *Work) Go(f func()) {
	if w == nil {
		go f()
		return
	}
	w.wg.Add(1)
	actors.Dispatcher.Counted(f, &w.wg)
}

// Pictures is how many of the owner's pictures are being taken or scaled
// now (the load test waits for none before it weighs the heap).
func (w *Work) Pictures() int64 {
	if w == nil {
		return 0
	}
	return w.pictures.Load()
}

// picture runs f off the mailbox, counted in Pictures.
func (w *Work) picture(f func()) {
	if w == nil {
		go f()
		return
	}
	w.wg.Add(1)
	actors.Dispatcher.Schedule(func() {
		defer w.wg.Done()
		defer w.picturing()()
		f()
	})
}

// picturing counts a picture in Pictures until the func it returns is called.
func (w *Work) picturing() func() {
	if w == nil {
		return func() {}
	}
	w.pictures.Add(1)
	return func() { w.pictures.Add(-1) }
}

// ending is closed once End began; nil (never closed) for a nil Work.
func (w *Work) ending() <-chan struct{} {
	if w == nil {
		return nil
	}
	return w.quit
}

// End drops the pictures not yet begun and waits for the rest until ctx
// ends. Call it only once no session is left to start more.
func (w *Work) End(ctx context.Context) error {
	if w == nil {
		return nil
	}
	w.once.Do(func() { close(w.quit) })
	done := make(chan struct{})
	go func() { w.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("session: what the sessions ran off their mailboxes did not end in time: %w", ctx.Err())
	}
}
