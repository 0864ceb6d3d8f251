package playwright

import (
	"sync"
	"time"
)

// The watchdog's two counters: a question kept in flight and how long it
// has waited, and events counted in fixed windows.

// pinger keeps one question in flight to something that should answer at
// once, and says how long it has gone unanswered.
type pinger struct {
	mu       sync.Mutex
	sent     time.Time // when the question in flight was sent; zero when none is
	after    int64     // the read of buddi's (its start, Unix ns) in flight when it was sent; 0 when none was
	answered time.Time // when the last question was answered (or failed)
	ok       time.Time // when the last question was answered without failing
	err      error     // how the last question failed, when it failed
}

// quiet says how long the question in flight has waited (0: none is),
// and when the last one was answered.
func (p *pinger) quiet(now time.Time) (time.Duration, time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sent.IsZero() {
		return 0, p.answered
	}
	return now.Sub(p.sent), p.answered
}

// silent sends a question when none is in flight (ask runs on a goroutine
// of its own) and says how long the one in flight has waited, and how the
// last one failed, if it did. after is the start of buddi's own read in
// flight (0: none is), which a question sent now waits behind.
func (p *pinger) silent(now time.Time, after int64, ask func() error) (time.Duration, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.sent.IsZero() {
		return now.Sub(p.sent), p.err
	}
	p.sent, p.after = now, after
	go func() {
		err := ask()
		p.mu.Lock()
		p.sent, p.after, p.answered, p.err = time.Time{}, 0, time.Now(), err
		if err == nil {
			p.ok = p.answered
		}
		p.mu.Unlock()
	}()
	return 0, p.err
}

// answeredOK records an answer of the page to a question asked outside the
// watchdog.
func (p *pinger) answeredOK(now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ok = now
}

// behind is the start of the read of buddi's that the question in flight
// was sent during (Unix ns); 0 when none is in flight or it was sent
// while no read was.
func (p *pinger) behind() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.after
}

// lastOK is when the last question was answered without failing.
func (p *pinger) lastOK() time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ok
}

// window counts events in fixed windows.
type window struct {
	mu    sync.Mutex
	start time.Time
	n     int
}

// hit counts one event and returns how many the current window of length
// w holds.
func (c *window) hit(w time.Duration) int { return c.add(1, w) }

// add counts n events and returns how many the current window holds.
func (c *window) add(n int, w time.Duration) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if now := time.Now(); now.Sub(c.start) > w {
		c.start, c.n = now, 0
	}
	c.n += n
	return c.n
}
