package sim

import (
	"github.com/buddi-dev/buddi/drivers"
)

// tabOp lists, opens, switches and closes tabs. A new tab starts blank, or
// loads Action.URL when given. Closing the active tab leaves none active
// until a switch or a new tab.
func (t *Tabs) tabOp(c *call) (*drivers.Outcome, error) {
	a := c.a
	switch a.TabOp {
	case "list", "switch", "close":
	case "new":
		return t.openTab(c)
	default:
		return nil, errBadInput("A tab action is list, new, switch or close.")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil, errClosed()
	}
	out := &drivers.Outcome{Result: drivers.Done}
	switch a.TabOp {
	case "switch":
		tb := t.find(a.TabID)
		if tb == nil {
			return nil, errBadInput("There is no tab %q; list the tabs to see their ids.", a.TabID)
		}
		out.Changed = tb != t.active
		t.active = tb
		t.touch()
		out.URL, out.Title = tb.page().url, tb.page().title
	case "close":
		tb := t.active
		if a.TabID != "" {
			tb = t.find(a.TabID)
		}
		if tb == nil {
			return nil, errBadInput("There is no tab %q to close; list the tabs to see their ids.", a.TabID)
		}
		out.Changed = tb == t.active
		t.closeTab(tb)
	}
	out.Tabs = t.infos()
	return out, nil
}

func (t *Tabs) openTab(c *call) (*drivers.Outcome, error) {
	var to *page
	if c.a.URL != "" {
		var err error
		if to, err = t.d.sites.resolve(c.a.URL, t.d.cfg.Redirects); err != nil {
			return nil, err
		}
	}
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil, errClosed()
	}
	tb := t.newTab()
	t.active = tb
	t.touch()
	slow := to != nil && t.roll(t.d.faults().SlowLoad)
	out := &drivers.Outcome{Result: drivers.Done, URL: BlankURL, Tabs: t.infos(), Changed: true}
	t.mu.Unlock()
	if to == nil {
		return out, nil
	}
	out, err := t.load(c, tb, to, push, slow, drivers.Loaded)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	out.Tabs = t.infos()
	t.mu.Unlock()
	return out, nil
}
