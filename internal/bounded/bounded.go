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
// It has no parent and carries no values. It is kept small (one is made
// per agent call and per act): the deadline is a reading of the monotonic
// clock, why it ended a number, and the funcs to run a list of their own.
type Context struct {
	mu    sync.Mutex
	at    time.Duration // the deadline, as time since epoch
	done  chan struct{} // nil until Done is asked for
	timer *time.Timer   // nil until something waits for the end
	after *afterFunc    // to run once it ends, the last given first
	ended ending
}

// ending is why a Context ended, or live.
type ending uint8

const (
	live ending = iota
	cancelled
	timedOut
)

// err is the context package's error for e.
func (e ending) err() error {
	switch e {
	case cancelled:
		return context.Canceled
	case timedOut:
		return context.DeadlineExceeded
	}
	return nil
}

// epoch is where the deadlines of this process are measured from, on the
// monotonic clock: steps of the wall clock do not move them.
var epoch = time.Now()

// afterFunc is one func given to AfterFunc, until it runs or is stopped.
type afterFunc struct {
	f    func()
	next *afterFunc
}

var _ context.Context = (*Context)(nil)

// New is a Context that ends d from now.
func New(d time.Duration) *Context { return &Context{at: time.Since(epoch) + d} }

// Deadline is when the context ends unless cancelled first: now, by the
// wall clock as it reads now, plus the time left by the monotonic one. (The
// epoch's own wall reading would be wrong by any step of the wall clock
// since the process began, and a deadline sent to another member is read
// by its wall clock.)
func (c *Context) Deadline() (time.Time, bool) {
	now := time.Now()
	return now.Add(c.at - now.Sub(epoch)), true
}

// Value is nil: the context carries no values.
func (c *Context) Value(any) any { return nil }

// Done is closed once the deadline passes or the context is cancelled.
func (c *Context) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done == nil {
		c.done = make(chan struct{})
		if c.ended != live {
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
	if c.ended == live && c.passed() {
		c.endLocked(timedOut)
	}
	return c.ended.err()
}

// passed says the deadline is behind.
func (c *Context) passed() bool { return time.Since(epoch) >= c.at }

// AfterFunc arranges for f to run in its own goroutine once the context
// ends, as context.AfterFunc does; stop unregisters f and says whether it
// did so before f was started. A child context (context.WithCancel of
// this one) is tied to it through AfterFunc, with no goroutine of its own.
func (c *Context) AfterFunc(f func()) (stop func() bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended != live {
		go f()
		return func() bool { return false }
	}
	a := &afterFunc{f: f, next: c.after}
	c.after = a
	c.armLocked()
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		for p := &c.after; *p != nil; p = &(*p).next {
			if *p == a {
				*p = a.next
				return true
			}
		}
		return false
	}
}

// Cancel ends the context unless it already ended.
func (c *Context) Cancel() { c.end(cancelled) }

// armLocked ends the context if its deadline passed, or else arms the
// timer that ends it, once; the caller holds mu.
func (c *Context) armLocked() {
	switch {
	case c.ended != live, c.timer != nil:
	case c.passed():
		c.endLocked(timedOut)
	default:
		c.timer = time.AfterFunc(c.at-time.Since(epoch), func() { c.end(timedOut) })
	}
}

func (c *Context) end(why ending) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.endLocked(why)
}

// endLocked ends the context for why unless it already ended; the caller
// holds mu.
func (c *Context) endLocked(why ending) {
	if c.ended != live {
		return
	}
	c.ended = why
	if c.timer != nil {
		c.timer.Stop()
	}
	if c.done != nil {
		close(c.done)
	}
	for a := c.after; a != nil; a = a.next {
		go a.f()
	}
	c.after = nil
}
