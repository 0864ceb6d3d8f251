package sim

import (
	"net/url"
	"slices"

	"github.com/buddi-dev/buddi/drivers"
)

// effect is what one input does to the page.
type effect struct {
	field  int32  // node whose value changes, or -1
	value  string // its new value; "" clears it
	to     *page  // page to navigate to, or nil
	submit bool   // a form is submitted
}

var noEffect = effect{field: -1}

// input dispatches click, fill, select, press, hover, scroll and submit.
// Nothing is dispatched unless the target still names the element observed.
func (t *Tabs) input(c *call) (*drivers.Outcome, error) {
	a := c.a
	t.mu.Lock()
	tb, p, i, err := t.aim(a)
	var eff effect
	if err == nil {
		eff, err = t.effect(p, tb.vals, i, a)
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
// the node it names, or -1 for an untargeted press or scroll.
func (t *Tabs) aim(a *drivers.Action) (*tab, *page, int32, error) {
	tb, err := t.activeTab()
	if err != nil {
		return nil, nil, 0, err
	}
	p := tb.page()
	if a.Target == nil {
		if a.Kind == drivers.Press || a.Kind == drivers.Scroll {
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

// effect validates the input against its element and says what it does.
func (t *Tabs) effect(p *page, st state, i int32, a *drivers.Action) (effect, error) {
	var n *node
	if i >= 0 {
		n = &p.nodes[i]
	}
	switch a.Kind {
	case drivers.Click:
		return t.click(p, st, i, n), nil
	case drivers.Fill, drivers.SecretFill:
		return fill(p, i, n, a)
	case drivers.Select:
		return choose(p, i, n, a.Values)
	case drivers.Press:
		if a.Value == "" {
			return noEffect, errBadInput("Name the key to press, such as Enter.")
		}
		if n != nil && a.Value == "Enter" && n.editable() && n.form >= 0 {
			return submitted(p), nil
		}
	case drivers.Submit:
		if n.form < 0 && n.role != "form" {
			return noEffect, errBadInput("%s is not in a form; click a link or button instead.", n.ref)
		}
		return submitted(p), nil
	}
	return noEffect, nil
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
	if a.Kind == drivers.SecretFill && !slices.Contains(a.Origins, originOf(p.url)) {
		return noEffect, drivers.ErrSecretOrigin(n.ref, originOf(p.url), a.Origins)
	}
	if !n.editable() {
		return noEffect, errBadInput("Only text boxes can be filled; %s is a %s.", n.ref, n.role)
	}
	return effect{field: i, value: a.Value}, nil
}

// originOf is the origin of a page's URL.
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "null"
	}
	return u.Scheme + "://" + u.Host
}
