package telegramtest

import (
	"context"
	"sync"
	"testing"
	"time"
)

// Clock is a clock the test moves: Sleep returns only once Advance moved it
// past the sleeper's end. Sleepers are seen through Sleeping, so a test
// knows the bot waits, and for how long, without timing it.
type Clock struct {
	mu       sync.Mutex
	now      time.Time
	sleepers []*sleeper
	changed  chan struct{}
}

type sleeper struct {
	until time.Time
	d     time.Duration
	done  chan struct{}
}

// NewClock returns a clock at a fixed time.
func NewClock() *Clock {
	return &Clock{now: time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC), changed: make(chan struct{})}
}

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Sleep waits until the clock passed d from now, or ctx ended.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	c.mu.Lock()
	s := &sleeper{until: c.now.Add(d), d: d, done: make(chan struct{})}
	c.sleepers = append(c.sleepers, s)
	c.signal()
	c.mu.Unlock()
	select {
	case <-s.done:
		return nil
	case <-ctx.Done():
		c.mu.Lock()
		c.drop(s)
		c.mu.Unlock()
		return ctx.Err()
	}
}

// Advance moves the clock by d and wakes the sleepers it passed.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.sleepers[:0]
	for _, s := range c.sleepers {
		if c.now.Before(s.until) {
			kept = append(kept, s)
			continue
		}
		close(s.done)
	}
	c.sleepers = kept
	c.signal()
}

// AwaitSleeper waits until someone sleeps for exactly d, and returns how
// many sleep now.
func (c *Clock) AwaitSleeper(t testing.TB, d time.Duration) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	for {
		c.mu.Lock()
		for _, s := range c.sleepers {
			if s.d == d {
				n := len(c.sleepers)
				c.mu.Unlock()
				return n
			}
		}
		changed := c.changed
		c.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatalf("nobody slept for %s; sleeping: %v", d, c.Sleeping())
		}
	}
}

// Sleeping lists how long each sleeper asked to sleep.
func (c *Clock) Sleeping() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]time.Duration, len(c.sleepers))
	for i, s := range c.sleepers {
		out[i] = s.d
	}
	return out
}

func (c *Clock) drop(s *sleeper) {
	for i, x := range c.sleepers {
		if x == s {
			c.sleepers = append(c.sleepers[:i], c.sleepers[i+1:]...)
			break
		}
	}
	c.signal()
}

func (c *Clock) signal() {
	close(c.changed)
	c.changed = make(chan struct{})
}
