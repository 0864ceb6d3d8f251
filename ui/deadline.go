package ui

import (
	"context"
	"sync"
	"time"
)

// deadline bounds one request's wait on the actors.
func deadline(d time.Duration) (context.Context, context.CancelFunc) {
	c := newBounded(d)
	return c, c.cancel
}

// newBounded is deadline's context, cancelled by its cancel method: a
// caller on the hot path defers that, and makes no cancel func.
func newBounded(d time.Duration) *bounded {
	return &bounded{at: time.Now().Add(d)}
}

// bounded is a context that ends at a deadline or when cancelled, made in
// one allocation: the timer that closes Done is armed only once someone
// asks for Done. The agent's hot path only reads the deadline (the gateway
// waits on a timer of its own), so most requests never arm one.
type bounded struct {
	at    time.Time
	mu    sync.Mutex
	done  chan struct{} // nil until Done is asked for
	timer *time.Timer
	err   error
}

var _ context.Context = (*bounded)(nil)

func (c *bounded) Deadline() (time.Time, bool) { return c.at, true }

func (c *bounded) Value(any) any { return nil }

// Done is closed once the deadline passes or the context is cancelled.
func (c *bounded) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done != nil {
		return c.done
	}
	c.done = make(chan struct{})
	switch {
	case c.err != nil:
		close(c.done)
	case !time.Now().Before(c.at):
		c.endLocked(context.DeadlineExceeded)
	default:
		c.timer = time.AfterFunc(time.Until(c.at), func() { c.end(context.DeadlineExceeded) })
	}
	return c.done
}

// Err is nil until the context ends, then why it ended.
func (c *bounded) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil && !time.Now().Before(c.at) {
		c.endLocked(context.DeadlineExceeded)
	}
	return c.err
}

func (c *bounded) cancel() { c.end(context.Canceled) }

func (c *bounded) end(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.endLocked(err)
}

// endLocked ends the context with err unless it already ended; the caller
// holds mu.
func (c *bounded) endLocked(err error) {
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
}
