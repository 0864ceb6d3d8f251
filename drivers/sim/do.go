package sim

import (
	"context"

	"github.com/buddi-dev/buddi/drivers"
)

// call is one Do in flight.
type call struct {
	ctx  context.Context
	intr <-chan struct{} // closed by Interrupt
	a    *drivers.Action
}

// Do performs one action on the active tab after Config.Latency.
// Navigations wait Config.LoadLatency, at most the action's timeout, and
// report load_pending when the load would take longer.
func (t *Tabs) Do(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	if a == nil {
		return nil, errBadInput("Give an action to perform.")
	}
	intr, err := t.begin(ctx)
	if err != nil {
		return nil, err
	}
	if err := pause(ctx, intr, t.d.cfg.Latency); err != nil {
		return nil, err
	}
	c := &call{ctx: ctx, intr: intr, a: a}
	switch a.Kind {
	case drivers.Navigate:
		return t.navigate(c)
	case drivers.Back, drivers.Forward:
		return t.history(c)
	case drivers.TabAction:
		return t.tabOp(c)
	case drivers.WaitFor:
		return t.waitFor(ctx, intr, a)
	case drivers.DOM:
		return t.dom(a)
	case drivers.Console:
		return t.consoleText()
	case drivers.Screenshot:
		return t.capture(a)
	case drivers.Open:
		return nil, drivers.ErrNoApps()
	}
	if a.Kind.Mutating() {
		return t.input(c)
	}
	return nil, errBadInput("%q is not an action the simulation knows.", a.Kind)
}

func samePage(p *page) *drivers.Outcome {
	return &drivers.Outcome{Result: drivers.SamePage, URL: p.url, Title: p.title}
}
