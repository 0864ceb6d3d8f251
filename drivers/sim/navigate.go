package sim

import (
	"slices"
	"time"

	"github.com/buddi-dev/buddi/drivers"
)

func (t *Tabs) navigate(c *call) (*drivers.Outcome, error) {
	to, err := t.d.sites.resolve(c.a.URL, t.d.cfg.Redirects)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	tb, err := t.activeTab()
	slow := err == nil && t.roll(t.d.faults().SlowLoad)
	t.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return t.load(c, tb, to, push, slow, drivers.Loaded)
}

// history goes back or forward; with nowhere to go it stays on the page.
func (t *Tabs) history(c *call) (*drivers.Outcome, error) {
	t.mu.Lock()
	tb, err := t.activeTab()
	if err != nil {
		t.mu.Unlock()
		return nil, err
	}
	m, i := back, tb.pos-1
	if c.a.Kind == drivers.Forward {
		m, i = forward, tb.pos+1
	}
	if i < 0 || i >= len(tb.hist) {
		p := tb.page()
		t.mu.Unlock()
		return samePage(p), nil
	}
	to, slow := tb.hist[i], t.roll(t.d.faults().SlowLoad)
	t.mu.Unlock()
	return t.load(c, tb, to, m, slow, drivers.Loaded)
}

// load takes tb to page to. It waits for the load, or for the action's
// timeout when the load takes longer, in which case the page commits with
// its load pending. Interrupted or cancelled, nothing commits.
func (t *Tabs) load(c *call, tb *tab, to *page, m move, slow bool, result string) (*drivers.Outcome, error) {
	delay, limit := t.d.cfg.LoadLatency, timeout(c.a)
	if slow {
		delay = t.d.cfg.slowLoad()
	}
	if err := pause(c.ctx, c.intr, min(delay, limit)); err != nil {
		return nil, err
	}
	var until time.Time
	if delay > limit {
		until, result = time.Now().Add(delay-limit), drivers.LoadPending
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	select {
	case <-c.intr:
		return nil, errInterrupted()
	default:
	}
	if !slices.Contains(t.tabs, tb) {
		return nil, errTabGone()
	}
	t.commit(tb, to, m, until)
	return &drivers.Outcome{Result: result, URL: to.url, Title: to.title, Changed: true}, nil
}
