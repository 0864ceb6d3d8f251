package playwright

import (
	"context"
	"time"

	"github.com/buddi-dev/buddi/drivers"
)

// Default bounds of actions.
const (
	navTimeout     = 15 * time.Second // navigate, and loads an action started
	inputTimeout   = 5 * time.Second  // waiting for an element to take input, on an idle machine (underLoad)
	waitDefault    = 5 * time.Second  // wait_for
	waitMax        = 15 * time.Second
	domChars       = 8000
	navStartWindow = 80 * time.Millisecond // how long a click may take to start a navigation
)

// Do performs one action on the conversation's tabs.
func (ts *Tabs) Do(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	if a == nil {
		return nil, badInput("No action was given.")
	}
	ctx, cancel := withDefault(ctx, 60*time.Second)
	defer cancel()
	ctx, end, err := ts.begin(ctx, a.Owner)
	if err != nil {
		return nil, err
	}
	defer end()
	out, err := ts.do(ctx, a)
	if err != nil {
		err = ended(err, drivers.CodeTimeout, "The action did not finish in time; observe to see where the page is.")
		if t, _ := ts.current(); t != nil {
			t.witness(ctx, err)
		}
		if a.Owner {
			return nil, err // what happened to the page is the agent's news
		}
		return nil, ts.explain(err)
	}
	if out != nil {
		out.Bound()
	}
	return out, nil
}

func (ts *Tabs) do(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	switch a.Kind {
	case drivers.Open:
		return nil, drivers.ErrNoApps()
	case drivers.TabAction:
		return ts.tabOp(ctx, a)
	case drivers.Click, drivers.Fill, drivers.SecretFill, drivers.Select, drivers.Hover, drivers.Submit:
		r, err := ts.resolve(ctx, a.Target)
		if err != nil {
			return nil, err
		}
		return r.act(ctx, a)
	case drivers.Press:
		return ts.press(ctx, a)
	case drivers.Scroll:
		return ts.scroll(ctx, a)
	}
	t, err := ts.current()
	if err != nil {
		return nil, err
	}
	switch a.Kind {
	case drivers.Navigate:
		return t.navigate(ctx, a)
	case drivers.Back, drivers.Forward:
		return t.history(ctx, a)
	case drivers.WaitFor:
		return t.waitFor(ctx, a)
	case drivers.DOM:
		return t.dom(ctx, a)
	case drivers.Console:
		return t.consoleText(a), nil
	case drivers.Screenshot:
		return t.screenshotOutcome(ctx, a)
	}
	return nil, badInput("Unknown action " + string(a.Kind) + ".")
}

// act dispatches a target-taking action on its checked element.
func (r *resolved) act(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	switch a.Kind {
	case drivers.Click:
		return r.click(ctx, a)
	case drivers.Fill, drivers.SecretFill:
		return r.fill(ctx, a)
	case drivers.Select:
		return r.selectOptions(ctx, a)
	case drivers.Hover:
		return r.hover(ctx)
	case drivers.Submit:
		return r.submit(ctx, a)
	}
	return nil, badInput("Unknown action " + string(a.Kind) + ".")
}
