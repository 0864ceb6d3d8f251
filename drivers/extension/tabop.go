package extension

import (
	"context"

	"github.com/buddi-dev/buddi/drivers"
)

// tabOp lists, opens, switches to or closes one of the conversation's tabs.
// A new tab opens in the background, in the group; switching changes which
// tab buddi reads and never brings a tab to the owner's front.
func (ts *Tabs) tabOp(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	switch a.TabOp {
	case "list":
	case "new":
		var t chromeTab
		if err := ts.d.call(ctx, "newtab", map[string]any{"conv": ts.conv}, &t); err != nil {
			return nil, err
		}
		ts.mu.Lock()
		ts.pages[t.ID], ts.active = page{}, t.ID
		ts.mu.Unlock()
	case "switch":
		n, err := ts.named(ctx, a.TabID)
		if err != nil {
			return nil, err
		}
		ts.mu.Lock()
		ts.active = n
		ts.mu.Unlock()
	case "close":
		if err := ts.closeTab(ctx, a.TabID); err != nil {
			return nil, err
		}
	default:
		return nil, badInput("tab takes list, new, switch or close.")
	}
	tabs, err := ts.list(ctx)
	if err != nil {
		return nil, err
	}
	out := &drivers.Outcome{Result: drivers.Done, Tabs: tabs}
	for _, t := range tabs {
		if t.Active {
			out.URL, out.Title = t.URL, t.Title
		}
	}
	out.Changed = a.TabOp != "list"
	return out, nil
}

// named is the conversation's tab with the id, as the group has it now.
func (ts *Tabs) named(ctx context.Context, id string) (int, error) {
	n, ok := parseTab(id)
	if !ok {
		return 0, badInput("That is not a tab id; tab list names them (t123).")
	}
	tabs, err := ts.list(ctx)
	if err != nil {
		return 0, err
	}
	for _, t := range tabs {
		if t.ID == id {
			return n, nil
		}
	}
	return 0, fail(drivers.CodeTabGone, nil, "The tab "+id+" is not one of this conversation's; tab list names them.")
}

// closeTab closes the named tab (the active one by default). When it was
// the active one another of the group becomes active; the last one closed
// leaves a fresh blank tab, so the conversation always has one.
func (ts *Tabs) closeTab(ctx context.Context, id string) error {
	n := ts.current()
	if id != "" {
		var err error
		if n, err = ts.named(ctx, id); err != nil {
			return err
		}
	}
	if err := ts.d.call(ctx, "close", map[string]any{"conv": ts.conv, "tab": n}, nil); err != nil {
		return err
	}
	ts.mu.Lock()
	delete(ts.pages, n)
	ts.mu.Unlock()
	if ts.current() != n {
		return nil
	}
	var ans struct {
		Tabs []chromeTab `json:"tabs"`
	}
	if err := ts.d.call(ctx, "open", map[string]any{"conv": ts.conv}, &ans); err != nil {
		return err
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for _, t := range ans.Tabs {
		if _, known := ts.pages[t.ID]; !known {
			ts.pages[t.ID] = page{}
		}
	}
	if len(ans.Tabs) > 0 {
		ts.active = ans.Tabs[0].ID
	}
	return nil
}
