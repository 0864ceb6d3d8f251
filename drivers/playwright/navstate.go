package playwright

import (
	"context"
	"sync"
	"time"
)

// navMark counts what happened to a tab's main frame and opener since it
// opened. Comparing two marks tells what an action caused.
type navMark struct {
	started   uint64 // main-frame navigation requests (each redirect hop too)
	committed uint64 // main-frame commits, same-document ones included
	ended     uint64 // main-frame navigation requests that failed or ended without a document
	blocked   uint64 // navigations CheckURL refused
	popups    uint64 // popups this tab opened that were allowed and set up
	opening   uint64 // allowed window.open calls heard from this tab's page
	resolved  uint64 // of those, the ones whose popup was set up or refused
}

func (m navMark) moved(from navMark) bool { return m != from }

// navState records navigation events as Playwright delivers them, and wakes
// whoever waits for the next one.
type navState struct {
	mu        sync.Mutex
	mark      navMark
	lastBlock error
	wake      chan struct{} // closed and replaced at every event
}

func newNavState() *navState { return &navState{wake: make(chan struct{})} }

func (n *navState) bump(f func(m *navMark)) {
	n.mu.Lock()
	f(&n.mark)
	close(n.wake)
	n.wake = make(chan struct{})
	n.mu.Unlock()
}

func (n *navState) block(err error) {
	n.mu.Lock()
	n.lastBlock = err
	n.mu.Unlock()
	n.bump(func(m *navMark) { m.blocked++ })
}

func (n *navState) now() (navMark, <-chan struct{}) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.mark, n.wake
}

func (n *navState) blockErr() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.lastBlock
}

// await waits up to d for until to hold. It returns the latest mark and
// whether until held; a done ctx ends the wait early.
func (n *navState) await(ctx context.Context, d time.Duration, until func(navMark) bool) (navMark, bool) {
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		m, wake := n.now()
		if until(m) {
			return m, true
		}
		select {
		case <-wake:
		case <-timer.C:
			return m, false
		case <-ctx.Done():
			return m, false
		}
	}
}
