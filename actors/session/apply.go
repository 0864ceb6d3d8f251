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
	spec := messages.Spec(in.Action)
	if spec.Run == messages.RunScript {
		return a.scriptDone(ctx, in, d)
	}
	if d.err != nil {
		return a.failed(ctx, in, d.err)
	}
	if spec.Run == messages.RunObserve {
		a.fails.observe = 0
		a.url, a.title = d.obs.URL, d.obs.Title
		id := a.ev.set(a.rec.Epoch, d.obs)
		a.keepShot(d.thumb)
		r := a.observation(id, d.obs, in.Screenshot)
		r.Timing = messages.WaitedFor(d.waited)
		return &messages.ToolResult{Result: r}
	}
	if spec.Mutating {
		a.fails.target = 0
	}
	out := d.out
	switch {
	case out.Title != "":
		a.title = out.Title
	case out.URL != "" && out.URL != a.url:
		a.title = "" // another page, whose title the driver did not say
	}
	if out.URL != "" {
		a.url = out.URL
	}
	if out.Changed || spec.ChangesPage {
		a.ev.stale("the page changed after " + in.Action)
	}
	a.keepShot(d.thumb)
	if d.then != nil {
		return a.observedAfter(out, d)
	}
	r := a.outcome(in, out)
	r.Timing = messages.WaitedFor(d.waited)
	return &messages.ToolResult{Result: r}
}

// observedAfter answers an action sent with thenObserve with the
// observation of the page after it, carrying the action's outcome.
func (a *Actor) observedAfter(out *drivers.Outcome, d *done) *messages.ToolResult {
	a.fails.observe = 0
	a.url, a.title = d.then.URL, d.then.Title
	r := a.observation(a.ev.set(a.rec.Epoch, d.then), d.then, false)
	r.Outcome = out.Result
	r.Timing = messages.WaitedFor(d.waited)
	return &messages.ToolResult{Result: r}
}

// failed maps a driver failure onto the pause rules.
func (a *Actor) failed(ctx actor.Context, in *messages.ActInput, err error) *messages.ToolResult {
	e := refusal(err)
	spec := messages.Spec(in.Action)
	_, wasHeld := a.st.(*paused)
	switch e.Code {
	case drivers.CodeNotAnswering:
		a.notAnswering(ctx, spec)
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
	case drivers.CodeRestarted:
		// The same tabs, reopened in a new browser: new documents.
		a.ev.void("the browser was started again")
	case drivers.CodeUnresponsive:
		a.ev.void("buddi closed a page that stopped answering")
		// The page that did not answer is gone: the next page's
		// observations begin a new row.
		a.fails.observe = 0
	default:
		pageMayHaveChanged := spec.Mutating || spec.ChangesPage || spec.Run == messages.RunScript
		if pageMayHaveChanged && !e.Code.BeforeInput() {
			a.ev.stale(in.Action + " failed and may have changed the page")
		}
	}
	a.sayPaused(e, wasHeld)
	return messages.FailWith(e)
}

// sayPaused tells the agent in e that the session is paused, when it is:
// a failure that paused it as the third in a row says only that, since its
// own advice (observe again, try another ref) waits for the owner now.
func (a *Actor) sayPaused(e *messages.Error, wasHeld bool) {
	if _, held := a.st.(*paused); !held {
		return
	}
	if third := inARow(e.Code); !wasHeld && third != "" {
		e.Message = third
		return
	}
	e.Message += " The session is now paused until the owner resumes access."
}

// inARow is what the agent is told when a failure of code was the third in
// a row and paused the session; "" for a code that pauses at once.
func inARow(code messages.Code) string {
	const then = " so the session is now paused until the owner resumes access: tell the owner, and observe again once access is resumed."
	switch code {
	case drivers.CodeNotAnswering:
		return "The page did not answer a third observation in a row," + then
	case drivers.CodeTargetGone, drivers.CodeTargetMiss:
		return "A third target in a row did not match the page," + then
	}
	return ""
}

// notAnswering voids the observation after a page did not answer, and
// pauses the session at the third observation in a row that failed so.
func (a *Actor) notAnswering(ctx actor.Context, spec *messages.ActionSpec) {
	a.ev.void("the last observation failed")
	if spec.Run != messages.RunObserve {
		return
	}
	if a.fails.observe++; a.fails.observe >= maxObserveFailures {
		a.pause(ctx, "observation failed three times in a row")
	}
}

// scriptDone answers a script: the steps that ran and what each did, and
// when a step failed, its refusal with those steps beside it (a click that
// landed is never hidden behind a later failure).
func (a *Actor) scriptDone(ctx actor.Context, in *messages.ActInput, d *done) *messages.ToolResult {
	a.ev.stale("a script ran")
	for _, s := range d.script {
		if s.URL != "" {
			a.url = s.URL
		}
	}
	if d.err == nil {
		r := a.scriptResult(d.script)
		r.Timing = messages.WaitedFor(d.waited)
		return &messages.ToolResult{Result: r}
	}
	step := len(d.script) + 1
	res := a.failed(ctx, in.Steps[step-1], d.err)
	e := *res.Error
	failedStep := messages.ScriptStep{Step: step, Action: in.Steps[step-1].Action, Code: e.Code, Message: e.Message}
	e.Message = fmt.Sprintf("Script step %d (%s) failed after %d steps ran: %s", step, failedStep.Action, step-1, e.Message)
	e.Script = a.scriptResult(append(d.script, failedStep))
	return messages.FailWith(&e)
}

// targetMiss counts a targeting failure; three in a row pause the session.
func (a *Actor) targetMiss(ctx actor.Context) {
	a.fails.target++
	if a.fails.target >= maxTargetFailures {
		a.pause(ctx, "targeting failed three times in a row")
	}
}

func (a *Actor) stepsLeft() int { return max(0, a.task.MaxSteps-a.rec.StepsUsed) }
