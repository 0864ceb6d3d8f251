package sim

import (
	"cmp"
	"slices"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// effect is what one input does to the page.
type effect struct {
	field  int32  // node whose value changes, or -1
	value  string // its new value; "" clears it
	to     *page  // page to navigate to, or nil
	submit bool   // a form is submitted
}

var noEffect = effect{field: -1}

// effectOf validates an input against node i of page p (n, or -1 and nil
// for an untargeted press or scroll), whose fields hold st, and says what
// it does.
type effectOf func(p *page, st state, i int32, n *node) (effect, error)

// nothing is the effect of an input that changes no state (hover, scroll).
func nothing(*page, state, int32, *node) (effect, error) { return noEffect, nil }

// aiming says whether an input needs a target.
type aiming bool

const (
	targeted   aiming = false
	untargeted aiming = true // the target is optional (press, scroll)
)

// input dispatches click, fill, select, press, hover, scroll and submit,
// each with its effect. Nothing is dispatched unless the target still
// names the element observed.
func (t *Tabs) input(c *call, at aiming, of effectOf) (*drivers.Outcome, error) {
	a := c.a
	t.mu.Lock()
	tb, p, i, err := t.aim(a, at)
	var eff effect
	if err == nil {
		var n *node
		if i >= 0 {
			n = &p.nodes[i]
		}
		eff, err = of(p, tb.vals, i, n)
	}
	if err != nil {
		t.mu.Unlock()
		return nil, err
	}
	partial := t.roll(t.d.faults().PartialInput)
	if partial {
		eff = eff.half(a.Kind)
	}
	tb.set(eff)
	t.dispatch(a.Kind, eff.submit)
	slow := eff.to != nil && t.roll(t.d.faults().SlowLoad)
	t.touch()
	t.mu.Unlock()
	t.report(a.Kind)
	switch {
	case partial:
		return nil, errPartial(a.Kind)
	case eff.to == nil:
		return samePage(p), nil
	}
	return t.load(c, tb, eff.to, push, slow, drivers.Navigated)
}

// aim checks the action's target against the active tab's page and returns
// the node it names, or -1 for an optional target not given.
func (t *Tabs) aim(a *drivers.Action, at aiming) (*tab, *page, int32, error) {
	tb, err := t.activeTab()
	if err != nil {
		return nil, nil, 0, err
	}
	p := tb.page()
	if a.Target == nil {
		if at == untargeted {
			return tb, p, -1, nil
		}
		return nil, nil, 0, errBadInput("A %s needs a target from the latest observation.", a.Kind)
	}
	if a.Target.Tab != "" && a.Target.Tab != tb.id {
		return nil, nil, 0, errOtherTab(a.Target.Tab)
	}
	i, ok := p.index(a.Target.Ref)
	if !ok || p.nodes[i].fp != a.Target.Fingerprint {
		return nil, nil, 0, errStale()
	}
	if a.Target.Tree != "" {
		if tree, _, _, err := p.read(tb.vals, tb.id, tb.seen); err != nil || tree != a.Target.Tree {
			return nil, nil, 0, drivers.Errorf(drivers.CodeTargetGone, nil,
				"The page's tree changed since the observation, and a target named by what it is needs it unchanged; use a ref from a new observation.")
		}
	}
	if t.roll(t.d.faults().TargetMiss) {
		return nil, nil, 0, errMiss()
	}
	return tb, p, i, nil
}

func (t *Tabs) click(p *page, st state, i int32, n *node) effect {
	switch {
	case n.href != "":
		if to, ok := p.site.path(n.href); ok {
			return effect{field: -1, to: to}
		}
	case n.role == "button" && n.form >= 0:
		return submitted(p)
	case n.role == "checkbox":
		if st[i] == "on" {
			return effect{field: i}
		}
		return effect{field: i, value: "on"}
	case n.role == "option":
		return effect{field: n.combo, value: n.name}
	}
	return noEffect
}

func submitted(p *page) effect {
	return effect{field: -1, to: p.site.page(2 * p.site.pages), submit: true}
}

func choose(p *page, i int32, n *node, values []string) (effect, error) {
	if n.role != "combobox" {
		return noEffect, errBadInput("Only lists can be selected from; %s is a %s.", n.ref, n.role)
	}
	if len(values) != 1 {
		return noEffect, errBadInput("%q takes exactly one choice.", n.name)
	}
	o, ok := p.option(i, values[0])
	if !ok {
		return noEffect, errBadInput("%q is not an option of %q; observe the list to see its options.", values[0], n.name)
	}
	return effect{field: i, value: p.nodes[o].name}, nil
}

// half is what a half-happened input leaves behind: half the typed text,
// and nothing else.
func (e effect) half(k drivers.Kind) effect {
	if k == drivers.Fill || k == drivers.SecretFill {
		return effect{field: e.field, value: prefix(e.value, len(e.value)/2)}
	}
	return noEffect
}

// fill types a.Value into n; a secret only on a page of its origins.
func fill(p *page, i int32, n *node, a *drivers.Action) (effect, error) {
	if here := cmp.Or(messages.Origin(p.url), "null"); a.Kind == drivers.SecretFill && !slices.Contains(a.Origins, here) {
		return noEffect, drivers.ErrSecretOrigin(n.ref, here, a.Origins)
	}
	if !n.editable() {
		return noEffect, errBadInput("Only text boxes can be filled; %s is a %s.", n.ref, n.role)
	}
	return effect{field: i, value: a.Value}, nil
}
