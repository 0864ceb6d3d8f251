package session

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// Pause thresholds.
const (
	maxObserveFailures = 3
	maxTargetFailures  = 3
)

// failures counts consecutive failures for the pause rules.
type failures struct{ observe, target int }

// apply turns a driver result into the agent's answer and applies the pause
// rules. It runs in Receive.
func (a *Actor) apply(ctx actor.Context, in *messages.ActInput, d *done) *messages.ToolResult {
	if d.err != nil {
		return a.failed(ctx, in, d.err)
	}
	if in.Action == "observe" || in.Action == "find" {
		a.fails.observe = 0
		a.url = d.obs.URL
		id := a.ev.set(a.rec.Epoch, d.obs)
		a.keepShot(d.thumb)
		return &messages.ToolResult{Result: a.observation(id, d.obs)}
	}
	if in.Action == "script" {
		a.ev.stale("a script ran")
		return &messages.ToolResult{Result: map[string]any{"steps": d.script, "stepsLeft": a.stepsLeft()}}
	}
	if drivers.Kind(in.Action).Mutating() {
		a.fails.target = 0
	}
	out := d.out
	if out.URL != "" {
		a.url = out.URL
	}
	if out.Changed || changesPage(in.Action) {
		a.ev.stale("the page changed after " + in.Action)
	}
	if in.Action == "screenshot" {
		a.keepShot(d.thumb)
	}
	return &messages.ToolResult{Result: a.outcome(in, out)}
}

// failed maps a driver failure onto the pause rules.
func (a *Actor) failed(ctx actor.Context, in *messages.ActInput, err error) *messages.ToolResult {
	e := refusal(err)
	switch drivers.Code(e.Code) {
	case drivers.CodeNotAnswering:
		a.ev.void("the last observation failed")
		if in.Action == "observe" || in.Action == "find" {
			a.fails.observe++
			if a.fails.observe >= maxObserveFailures {
				a.pause(ctx, "observation failed three times in a row")
			}
		}
	case drivers.CodeTargetGone, drivers.CodeTargetMiss:
		a.ev.stale("the target changed")
		a.targetMiss(ctx)
	case drivers.CodePartial:
		a.pause(ctx, fmt.Sprintf("a %s failed part-way and may have half happened", in.Action))
	case drivers.CodeTabGone:
		a.pause(ctx, "the tab the agent was reading is gone")
	case drivers.CodeNoBrowser:
		// The browser is gone: let the next call open it again.
		a.tabs = nil
		a.ev.void("the browser had to be started again")
	default:
		pageMayHaveChanged := drivers.Kind(in.Action).Mutating() || changesPage(in.Action) || in.Action == "script"
		if pageMayHaveChanged && !refusedBeforeInput[e.Code] {
			a.ev.stale(in.Action + " failed and may have changed the page")
		}
	}
	if a.rec.Paused {
		e.Message += " The session is now paused until the owner resumes access."
	}
	return &messages.ToolResult{Error: e}
}

// targetMiss counts a targeting failure; three in a row pause the session.
func (a *Actor) targetMiss(ctx actor.Context) {
	a.fails.target++
	if a.fails.target >= maxTargetFailures {
		a.pause(ctx, "targeting failed three times in a row")
	}
}

func changesPage(action string) bool {
	switch action {
	case "navigate", "back", "forward", "tab", "submit":
		return true
	}
	return false
}

func (a *Actor) stepsLeft() int { return max(0, a.task.MaxSteps-a.rec.StepsUsed) }

// toAction builds the driver action from validated input.
func toAction(in *messages.ActInput, t *drivers.Target) *drivers.Action {
	act := &drivers.Action{Kind: drivers.Kind(in.Action), Target: t, URL: in.URL,
		Value: in.Value, Values: in.Values, DeltaY: in.DeltaY, TabOp: in.Tab,
		TabID: in.TabID, FullRes: in.FullRes, MaxChars: in.MaxChars}
	if in.Action == "press" {
		act.Value = in.Key
	}
	if in.Wait != nil {
		act.Wait = &drivers.WaitCond{Selector: in.Wait.Selector, Text: in.Wait.Text,
			URL: in.Wait.URL, Load: in.Wait.Load}
	}
	if in.TimeoutMs > 0 {
		act.Timeout = msDuration(in.TimeoutMs)
	} else if in.Action == "wait_for" {
		act.Timeout = msDuration(DefaultWaitMs)
	}
	return act
}

// refusedBeforeInput are failures decided before anything reached the page:
// the agent's evidence still describes it.
var refusedBeforeInput = map[string]bool{
	"bad_input": true, "bad_url": true, "not_allowed": true, "credential_field": true,
	"secret_value": true, "air_gap": true, "never_automate": true, "private_address": true,
	"scheme_not_allowed": true, "port_not_allowed": true, "host_not_allowed": true,
	"unapproved_site": true,
}
