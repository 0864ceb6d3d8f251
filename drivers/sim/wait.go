package sim

import (
	"context"
	"strings"
	"time"

	"github.com/buddi-dev/buddi/drivers"
)

// pause waits d unless the context ends or Interrupt is called first.
func pause(ctx context.Context, intr <-chan struct{}, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return nil
	case <-ctx.Done():
		return errContext(ctx.Err())
	case <-intr:
		return errInterrupted()
	}
}

func timeout(a *drivers.Action) time.Duration {
	if a.Timeout > 0 {
		return a.Timeout
	}
	return defaultTimeout
}

// waitFor returns once the condition holds on the active tab. It sleeps
// only until the next thing that could make it hold: a pending load
// completing, a change to the tabs, or the deadline.
func (t *Tabs) waitFor(ctx context.Context, intr <-chan struct{}, a *drivers.Action) (*drivers.Outcome, error) {
	w := a.Wait
	if w == nil || countSet(w) != 1 {
		return nil, errBadInput("wait_for takes exactly one of selector, text, url, load or ref.")
	}
	deadline := time.Now().Add(timeout(a))
	for {
		t.mu.Lock()
		tb, err := t.activeTab()
		if err != nil {
			t.mu.Unlock()
			return nil, err
		}
		p, wake := tb.page(), deadline
		if holds(tb, p, w) {
			t.mu.Unlock()
			return &drivers.Outcome{Result: drivers.Done, URL: p.url, Title: p.title}, nil
		}
		if !tb.loaded() && tb.loading.Before(wake) {
			wake = tb.loading
		}
		if t.changed == nil {
			t.changed = make(chan struct{})
		}
		changed := t.changed
		t.mu.Unlock()
		if !time.Now().Before(deadline) {
			return nil, drivers.Errorf(drivers.CodeTimeout, nil, "The page did not show what wait_for asked within %s; observe it and decide what to do.", timeout(a))
		}
		if err := waitUntil(ctx, intr, changed, wake); err != nil {
			return nil, err
		}
	}
}

func waitUntil(ctx context.Context, intr, changed <-chan struct{}, wake time.Time) error {
	tm := time.NewTimer(time.Until(wake))
	defer tm.Stop()
	select {
	case <-tm.C:
	case <-changed:
	case <-ctx.Done():
		return errContext(ctx.Err())
	case <-intr:
		return errInterrupted()
	}
	return nil
}

func holds(tb *tab, p *page, w *drivers.WaitCond) bool {
	switch {
	case w.Load:
		return tb.loaded()
	case w.URL != "":
		return strings.Contains(p.url, w.URL)
	case w.Text != "":
		return strings.Contains(p.text, w.Text)
	case w.Target != nil:
		i, ok := p.index(w.Target.Ref)
		return ok && p.nodes[i].fp == w.Target.Fingerprint
	default:
		return p.matches(w.Selector)
	}
}

func countSet(w *drivers.WaitCond) int {
	n := 0
	for _, set := range []bool{w.Selector != "", w.Text != "", w.URL != "", w.Load, w.Target != nil} {
		if set {
			n++
		}
	}
	return n
}
