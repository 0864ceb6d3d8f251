// Package bounded is a context that ends at a deadline or when cancelled,
// made in one allocation, whose timer is armed only once something waits
// for it to end: a hot path that only reads the deadline (the gateway
// waits on a timer of its own; the simulated browser only asks Err) starts
// and stops no timer per call.
//
// Concurrency: a Context is safe for use by many goroutines; its fields
// are guarded by its own mutex, and the funcs given to AfterFunc run in
// goroutines of their own, as context.AfterFunc's do.
package bounded

import (
	"context"
	"sync"
	"time"
)

// Context ends at its deadline or when cancelled, whichever comes first.
// It has no parent and carries no values.
type Context struct {
	at    time.Time
	mu    sync.Mutex
	done  chan struct{} // nil until Done is asked for
	timer *time.Timer   // nil until something waits for the end
	err   error
	after []*afterFunc // to run once it ends
}

// afterFunc is one func given to AfterFunc, until it runs or is stopped.
type afterFunc struct{ f func() }

var _ context.Context = (*Context)(nil)

// New is a Context that ends d from now.
func New(d time.Duration) *Context { return &Context{at: time.Now().Add(d)} }

// Deadline is when the context ends unless cancelled first.
func (c *Context) Deadline() (time.Time, bool) { return c.at, true }

// Value is nil: the context carries no values.
func (c *Context) Value(any) any { return nil }

// Done is closed once the deadline passes or the context is cancelled.
func (c *Context) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done == nil {
		c.done = make(chan struct{})
		if c.err != nil {
			close(c.done)
		}
	}
	c.armLocked()
	return c.done
}

// Err is nil until the context ends, then why it ended.
func (c *Context) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil && !time.Now().Before(c.at) {
		c.endLocked(context.DeadlineExceeded)
	}
	return c.err
}

// AfterFunc arranges for f to run in its own goroutine once the context
// ends, as context.AfterFunc does; stop unregisters f and says whether it
// did so before f was started. A child context (context.WithCancel of
// this one) is tied to it through AfterFunc, with no goroutine of its own.
func (c *Context) AfterFunc(f func()) (stop func() bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		go f()
		return func() bool { return false }
	}
	a := &afterFunc{f: f}
	c.after = append(c.after, a)
	c.armLocked()
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		for i, b := range c.after {
			if b == a {
				c.after = append(c.after[:i], c.after[i+1:]...)
				return true
			}
		}
		return false
	}
}

// Cancel ends the context unless it already ended.
func (c *Context) Cancel() { c.end(context.Canceled) }

// armLocked ends the context if its deadline passed, or else arms the
// timer that ends it, once; the caller holds mu.
func (c *Context) armLocked() {
	switch {
	case c.err != nil, c.timer != nil:
	case !time.Now().Before(c.at):
		c.endLocked(context.DeadlineExceeded)
	default:
		c.timer = time.AfterFunc(time.Until(c.at), func() { c.end(context.DeadlineExceeded) })
	}
}

func (c *Context) end(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.endLocked(err)
}

// endLocked ends the context with err unless it already ended; the caller
// holds mu.
func (c *Context) endLocked(err error) {
	if c.err != nil {
		return
	}
	c.err = err
	if c.timer != nil {
		c.timer.Stop()
	}
	if c.done != nil {
		close(c.done)
	}
	for _, a := range c.after {
		go a.f()
	}
	c.after = nil
}
