package sim

import (
	"context"

	"github.com/buddi-dev/buddi/drivers"
)

// Observe captures the active tab. Without FullPage, Within or Find it shows
// the first viewport's worth of lines and an outline of the landmarks and
// headings below; FullPage and Within read in parts of MaxChars (default
// 40000) with a continuation; Find lists matching nodes. Refs holds exactly
// the refs in the returned tree.
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
	if t.roll(t.d.faults().ObserveFail) {
		return nil, errNotAnswering()
	}
	p := tb.page()
	tree, shown, cont, err := p.read(tb.vals, tb.id, opts)
	if err != nil {
		return nil, err
	}
	refs := tb.refsOf(p, shown)
	tb.seen = opts
	return &drivers.Observation{
		URL:       p.url,
		Title:     p.title,
		Tab:       tb.id,
		Tabs:      t.infos(),
		Tree:      tree,
		Truncated: cont != nil,
		Continues: cont,
		Refs:      refs,
		TakenAt:   t.d.cfg.Now(),
	}, nil
}
