package session

import (
	"fmt"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// evidence is what the agent last observed. Mutating actions must name its id
// while it is fresh; anything that may have changed the page voids it.
type evidence struct {
	id     string
	refs   elements
	tree   string // the observation's tree: a semantic target needs it unchanged
	fresh  bool
	reason string // why it is not fresh
	n      int
}

// elements are the refs of an observation and the tab it was of: what an
// act's ref resolves against. The map is replaced, never changed.
type elements struct {
	tab string
	by  map[string]drivers.Element
}

// target is ref's element as a target in its tab; false when the
// observation has no such ref.
func (es elements) target(ref string) (*drivers.Target, bool) {
	el, ok := es.by[ref]
	if !ok {
		return nil, false
	}
	return &drivers.Target{Element: el, Tab: es.tab}, true
}

func (e *evidence) void(reason string) {
	e.fresh = false
	e.refs = elements{}
	e.tree = ""
	e.reason = reason
}

// stale marks the page as changed: refs stay known (so the agent is told
// precisely why) but mutating actions need a new observation.
func (e *evidence) stale(reason string) {
	e.fresh = false
	e.reason = reason
}

func (e *evidence) set(epoch int, obs *drivers.Observation) string {
	e.n++
	e.id = dotted("o", epoch, e.n)
	e.refs = elements{tab: obs.Tab, by: obs.Refs}
	e.tree = obs.Tree
	e.fresh = true
	e.reason = ""
	return e.id
}

// check refuses a mutating action that does not name the latest, still
// fresh observation, and resolves its target.
func (e *evidence) check(in *messages.ActInput) (*drivers.Target, *messages.Error) {
	if in.Observation != e.id || e.id == "" {
		return nil, &messages.Error{Code: messages.CodeStaleObservation, Message: fmt.Sprintf(
			"Observation %q is not the latest one; act on the newest observation id.", messages.Clip(in.Observation, 60))}
	}
	if !e.fresh {
		return nil, &messages.Error{Code: messages.CodeStaleObservation, Message: fmt.Sprintf(
			"Observation %s no longer describes the page (%s); act on a newer observation.", e.id, e.reason)}
	}
	if in.Target == nil || in.Target.Point() {
		return nil, nil // a pixel: the driver checks the screenshot is unchanged
	}
	if in.Target.Semantic() {
		return e.match(in.Target)
	}
	return e.ref(in.Target.Ref)
}

// ref resolves a ref of the latest observation.
func (e *evidence) ref(ref string) (*drivers.Target, *messages.Error) {
	t, ok := e.refs.target(ref)
	if !ok {
		return nil, &messages.Error{Code: messages.CodeStaleRef, Message: fmt.Sprintf(
			"%s is not an element of observation %s; pick a ref from that observation's targets.", ref, e.id)}
	}
	return t, nil
}

// match resolves a semantic target against the latest observation: exactly
// one of its elements must match, exactly, and the driver is handed the
// observation's tree to check that the page still shows it unchanged.
func (e *evidence) match(want *messages.TargetRef) (*drivers.Target, *messages.Error) {
	var found []drivers.Element
	for _, t := range e.refs.by {
		if matches(t, want) {
			found = append(found, t)
		}
	}
	switch len(found) {
	case 0:
		return nil, &messages.Error{Code: messages.CodeStaleRef, Message: fmt.Sprintf(
			"No element of observation %s is %s; pick a ref from that observation's targets.", e.id, want.Describe())}
	case 1:
		return &drivers.Target{Element: found[0], Tab: e.refs.tab, Tree: e.tree}, nil
	}
	return nil, &messages.Error{Code: messages.CodeAmbiguous, Message: fmt.Sprintf(
		"%d elements of observation %s are %s; pick one by its ref from that observation's targets.", len(found), e.id, want.Describe())}
}

// matches reports whether an observed element is what a semantic target
// names: exact text, in the frame it gives.
func matches(t drivers.Element, want *messages.TargetRef) bool {
	if t.Frame != want.Frame {
		return false
	}
	if r := want.MatchRole(); r != "" && t.Role != r {
		return false
	}
	switch want.By {
	case messages.ByLabel:
		return t.Label == want.Name
	case messages.ByPlaceholder:
		return t.Placeholder == want.Name
	case messages.ByText:
		return t.Text == want.Name
	}
	return t.Name == want.Name
}

// checkRead refuses a region read or a continuation whose ref is not in the
// latest observation. Nothing reached the page, so the evidence stands.
func (e *evidence) checkRead(in *messages.ActInput) *messages.Error {
	for _, ref := range []string{in.Within, in.After} {
		if _, ok := e.refs.by[ref]; ref != "" && !ok {
			return &messages.Error{Code: messages.CodeStaleRef, Message: fmt.Sprintf(
				"%s is not a ref of observation %s; read within a ref of your latest observation, or send its continues object as it is.", ref, e.id)}
		}
	}
	return nil
}
