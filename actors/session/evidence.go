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
	refs   map[string]drivers.Target
	fresh  bool
	reason string // why it is not fresh
	n      int
}

func (e *evidence) void(reason string) {
	e.fresh = false
	e.refs = nil
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
	e.id = fmt.Sprintf("o%d.%d", epoch, e.n)
	e.refs = obs.Refs
	e.fresh = true
	e.reason = ""
	return e.id
}

// check refuses a mutating action that does not name the latest, still
// fresh observation, and resolves its target.
func (e *evidence) check(in *messages.ActInput) (*drivers.Target, *messages.Error) {
	if in.Observation != e.id || e.id == "" {
		return nil, &messages.Error{Code: messages.CodeStaleObservation, Message: fmt.Sprintf(
			"Observation %q is not the latest one; observe again and act on the newest observation id.", clip(in.Observation))}
	}
	if !e.fresh {
		return nil, &messages.Error{Code: messages.CodeStaleObservation, Message: fmt.Sprintf(
			"Observation %s no longer describes the page (%s); observe again before acting.", e.id, e.reason)}
	}
	if in.Target == nil {
		return nil, nil
	}
	t, ok := e.refs[in.Target.Ref]
	if !ok {
		return nil, &messages.Error{Code: messages.CodeStaleRef, Message: fmt.Sprintf(
			"%s is not an element of observation %s; pick a ref from that observation's tree.", in.Target.Ref, e.id)}
	}
	return &t, nil
}

// checkRead refuses a region read or a continuation whose ref is not in the
// latest observation. Nothing reached the page, so the evidence stands.
func (e *evidence) checkRead(in *messages.ActInput) *messages.Error {
	for _, ref := range []string{in.Within, in.After} {
		if _, ok := e.refs[ref]; ref != "" && !ok {
			return &messages.Error{Code: messages.CodeStaleRef, Message: fmt.Sprintf(
				"%s is not a ref of observation %s; read within a ref of your latest observation, or send its continues object as it is.", ref, e.id)}
		}
	}
	return nil
}
