package session

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// call handles one agent tool call while ready.
func (a *Actor) call(ctx actor.Context, m *messages.AgentCall) {
	if m.Call.Tool == messages.ToolStatus {
		a.answerStatus(ctx)
		return
	}
	in := m.Call.Act
	if in == nil {
		ctx.Respond(messages.Fail(messages.CodeBadInput, "browser.act needs an input object such as {\"action\":\"observe\"}."))
		return
	}
	if a.limits(ctx) {
		return
	}
	spec := messages.Spec(in.Action)
	switch spec.Run {
	case messages.RunClose:
		a.release(ctx, "the agent closed the session")
		return
	case messages.RunSecrets:
		a.listSecrets(ctx)
		return
	}
	if left := a.stepsLeft(); in.Cost() > left {
		ctx.Respond(messages.Fail(messages.CodeBudgetShort, fmt.Sprintf(
			"This act needs %d steps but only %d are left in the budget; send a shorter script, or the action without thenObserve.", in.Cost(), left)))
		return
	}
	act, e := a.prepare(in, m.SitesApproved)
	if e != nil {
		a.refuse(ctx, m, e)
		return
	}
	if m.AppOnce != "" {
		a.onceApps[m.AppOnce] = true
	}
	a.rec.StepsUsed += in.Cost()
	a.dispatch(ctx, in, act, ctx.Sender(), nil)
	a.persistSteps()
}

// refuse answers a call refused before anything reached the page. A
// targeting refusal counts towards the pause rule and comes with fresh
// evidence; an air-gap refusal, and one of a URL carrying a secret, is
// recorded.
func (a *Actor) refuse(ctx actor.Context, m *messages.AgentCall, e *messages.Error) {
	in := m.Call.Act
	switch e.Code {
	case messages.CodeStaleRef, messages.CodeAmbiguous:
		if messages.Spec(in.Action).Mutating {
			a.targetMiss(ctx)
		}
	case messages.CodeAirGap, messages.CodeSecretInURL:
		url := a.url
		if in.Action == "navigate" {
			url = in.URL
		}
		a.recordRefusal(ctx, in, url, e)
		if e.Code == messages.CodeAirGap {
			r := a.reach()
			e = messages.AirGapWayBack(e, a.surface().Over(m.Call.Surface), r != nil && r.AirGapByEnv)
		}
	}
	if _, held := a.st.(*paused); held {
		e.Message += " The session is now paused until the owner resumes access."
	}
	if a.recover(ctx, e, ctx.Sender()) {
		return
	}
	ctx.Respond(messages.FailWith(e))
}

// limits ends the task when its time or budget is gone, and reports
// whether it did. The agent is answered only once the session's tabs are
// closed: the driver hands the same tabs to every Open of a conversation, so
// a new task the agent asks for on that answer would otherwise get the
// tabs this ending is about to close.
func (a *Actor) limits(ctx actor.Context) bool {
	if !a.cfg.Now().Before(a.task.Expires) {
		a.end(ctx, messages.CodeExpired, "its time ran out", ctx.Sender(),
			messages.Fail(messages.CodeExpired, fmt.Sprintf("The task's time ran out after %d of %d steps; ask the owner for a new task.", a.rec.StepsUsed, a.task.MaxSteps)))
		return true
	}
	if a.rec.StepsUsed >= a.task.MaxSteps {
		a.end(ctx, messages.CodeBudgetSpent, "its step budget was spent", ctx.Sender(),
			messages.Fail(messages.CodeBudgetSpent, fmt.Sprintf("All %d steps of this task are spent; ask the owner for a new task.", a.task.MaxSteps)))
		return true
	}
	return false
}

// prepare checks evidence and policy and builds the driver action; a
// reading (observe, find) gets none: it takes its options from in.
func (a *Actor) prepare(in *messages.ActInput, approved bool) (*drivers.Action, *messages.Error) {
	target, e := a.check(in, approved)
	if e != nil || messages.Spec(in.Action).Run == messages.RunObserve {
		return nil, e
	}
	act := toAction(in, target)
	if in.Action == string(drivers.SecretFill) {
		if e := a.fillSecret(in, act); e != nil {
			return nil, e
		}
	}
	if in.Wait != nil && in.Wait.Ref != "" {
		t, e := a.ev.ref(in.Wait.Ref)
		if e != nil {
			return nil, e
		}
		act.Wait.Target = t
	}
	return act, nil
}

// check checks evidence and policy: the apps the mode has, the target of
// an act that puts input on the page (which it returns), a read's region,
// a navigation's URL and a script's steps.
func (a *Actor) check(in *messages.ActInput, approved bool) (*drivers.Target, *messages.Error) {
	if e := a.checkApps(in); e != nil {
		return nil, e
	}
	var target *drivers.Target
	if messages.Spec(in.Action).Mutating {
		t, e := a.ev.check(in)
		if e != nil {
			return nil, e
		}
		target = t
		if e := a.checkInput(); e != nil {
			return nil, e
		}
	}
	if e := a.ev.checkRead(in); e != nil {
		return nil, e
	}
	if in.Action == "navigate" {
		if e := a.checkURL(in, approved); e != nil {
			return nil, e
		}
	}
	if messages.Spec(in.Action).Run == messages.RunScript {
		if e := a.prepareSteps(in, approved); e != nil {
			return nil, e
		}
	}
	return target, nil
}

// checkApps refuses what only Use my apps does (open, a pixel target) in a
// mode without apps.
func (a *Actor) checkApps(in *messages.ActInput) *messages.Error {
	if drivers.OpensApps(a.cfg.Driver, a.tabs) {
		return nil
	}
	if in.Action == "open" {
		return messages.CodeNoApps.Err()
	}
	if in.Target.Point() {
		return messages.Errorf(messages.CodeBadInput, "A pixel target works only in Use my apps; click a ref from your latest observation instead.")
	}
	return nil
}

// prepareSteps runs a script's steps through the checks a single call gets
// before any of them is dispatched.
func (a *Actor) prepareSteps(in *messages.ActInput, approved bool) *messages.Error {
	for i, s := range in.Steps {
		if messages.Spec(s.Action).Mutating {
			if s.Observation != a.ev.id {
				return &messages.Error{Code: messages.CodeStaleObservation, Message: fmt.Sprintf(
					"Script step %d names observation %q, not the latest one; observe again.", i+1, messages.Clip(s.Observation, 60))}
			}
			if e := a.checkInput(); e != nil {
				return e
			}
		}
		if s.Action == "navigate" {
			if e := a.checkURL(s, approved); e != nil {
				return e
			}
		}
	}
	return nil
}

func (a *Actor) checkInput() *messages.Error {
	if a.cfg.Policy == nil {
		return nil
	}
	if err := a.cfg.Policy.CheckInput(a.url); err != nil {
		return refusal(err)
	}
	return nil
}

func (a *Actor) checkURL(in *messages.ActInput, approved bool) *messages.Error {
	if a.cfg.Policy == nil {
		return nil
	}
	if err := a.cfg.Policy.CheckURL(in.URL, source(in.URLSource, approved)); err != nil {
		return refusal(err)
	}
	return nil
}

// refusal turns a policy or driver error into the agent's error, keeping
// its code.
func refusal(err error) *messages.Error {
	e := *messages.ErrorOf(err, messages.CodeNotAllowed)
	return &e
}

func restartedResult() *messages.ToolResult {
	return messages.Fail(messages.CodeRestarted, "The session restarted while this action ran; it was not repeated and may or may not have reached the page. Observe again before acting.")
}

// source is where a URL came from as the URL rules should see it: a page link
// the owner's site answers already cover counts as the agent's own choice.
func source(s string, approved bool) string {
	if s == "" || s == messages.URLFromPage && approved {
		return messages.URLFromAgent // the default: the agent chose the URL itself
	}
	return s
}
