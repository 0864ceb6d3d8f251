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
	return drivers.Dispatch(ctx, acting{t, intr}, a)
}

// acting is the tabs as the dispatcher drives them during one Do, which
// Interrupt ends by closing intr.
type acting struct {
	*Tabs
	intr <-chan struct{}
}

var _ drivers.Actions = acting{}

func (t acting) call(ctx context.Context, a *drivers.Action) *call {
	return &call{ctx: ctx, intr: t.intr, a: a}
}

func (t acting) Navigate(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return t.navigate(t.call(ctx, a))
}

func (t acting) History(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return t.history(t.call(ctx, a))
}

func (t acting) Tab(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return t.tabOp(t.call(ctx, a))
}

func (t acting) WaitFor(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return t.waitFor(ctx, t.intr, a)
}

func (t acting) DOM(_ context.Context, a *drivers.Action) (*drivers.Outcome, error) { return t.dom(a) }

func (t acting) Console(context.Context, *drivers.Action) (*drivers.Outcome, error) {
	return t.consoleText()
}

func (t acting) Screenshot(_ context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return t.capture(a)
}

func (t acting) Click(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return t.input(t.call(ctx, a), targeted, func(p *page, st state, i int32, n *node) (effect, error) {
		return t.click(p, st, i, n), nil
	})
}

func (t acting) Fill(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return t.input(t.call(ctx, a), targeted, func(p *page, _ state, i int32, n *node) (effect, error) {
		return fill(p, i, n, a)
	})
}

func (t acting) Select(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return t.input(t.call(ctx, a), targeted, func(p *page, _ state, i int32, n *node) (effect, error) {
		return choose(p, i, n, a.Values)
	})
}

// Press types a key, into the target when there is one; Enter in a form's
// text box submits it.
func (t acting) Press(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return t.input(t.call(ctx, a), untargeted, func(p *page, _ state, _ int32, n *node) (effect, error) {
		if a.Value == "" {
			return noEffect, errBadInput("Name the key to press, such as Enter.")
		}
		if n != nil && a.Value == "Enter" && n.editable() && n.form >= 0 {
			return submitted(p), nil
		}
		return noEffect, nil
	})
}

func (t acting) Hover(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return t.input(t.call(ctx, a), targeted, nothing)
}

func (t acting) Scroll(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return t.input(t.call(ctx, a), untargeted, nothing)
}

func (t acting) Submit(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return t.input(t.call(ctx, a), targeted, func(p *page, _ state, _ int32, n *node) (effect, error) {
		if n.form < 0 && n.role != "form" {
			return noEffect, errBadInput("%s is not in a form; click a link or button instead.", n.ref)
		}
		return submitted(p), nil
	})
}

func samePage(p *page) *drivers.Outcome {
	return &drivers.Outcome{Result: drivers.SamePage, URL: p.url, Title: p.title}
}
