package sim

import (
	"context"

	"github.com/buddi-dev/buddi/drivers"
)

// Observe captures the active tab. Without FullPage it shows the first
// viewport's worth of lines (Truncated when the page is longer); MaxChars,
// default 40000, bounds the tree at a line boundary. Refs holds exactly the
// refs in the returned tree.
func (t *Tabs) Observe(ctx context.Context, opts drivers.ObserveOptions) (*drivers.Observation, error) {
	intr, err := t.begin(ctx)
	if err != nil {
		return nil, err
	}
	if err := pause(ctx, intr, t.d.cfg.Latency); err != nil {
		return nil, err
	}
	obs, err := t.observe(opts)
	if err != nil {
		return nil, err
	}
	if opts.Screenshot {
		obs.Screenshot, _, _ = screenshot(false)
	}
	return obs, nil
}

func (t *Tabs) observe(opts drivers.ObserveOptions) (*drivers.Observation, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	tb, err := t.activeTab()
	if err != nil {
		return nil, err
	}
	if t.roll(t.d.cfg.Faults.ObserveFail) {
		return nil, errNotAnswering()
	}
	p := tb.page()
	maxLines, maxChars := viewportLines, opts.MaxChars
	if opts.FullPage {
		maxLines = -1
	}
	if maxChars <= 0 {
		maxChars = defaultTreeMax
	}
	tree, lines, truncated := cut(p.render(tb.vals), p.lines, maxLines, maxChars)
	return &drivers.Observation{
		URL:       p.url,
		Title:     p.title,
		Tab:       tb.id,
		Tabs:      t.infos(),
		Tree:      tree,
		Truncated: truncated,
		Refs:      p.refs(tb.id, lines),
		TakenAt:   t.d.cfg.Now(),
	}, nil
}
