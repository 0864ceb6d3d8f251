package session

import (
	"context"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/messages"
)

// state is what the session is doing, with the data only that state has.
// The session's state is exactly one of these values; nothing else says
// what state it is in.
type state interface {
	// name is the state as SessionInfo reports it.
	name() string
	// receive handles an agent call or an owner control.
	receive(a *Actor, ctx actor.Context)
	// leave lets go of what the state holds when the actor restarts.
	leave()
}

// ready: waiting with its tabs open; the agent may act.
type ready struct{}

// working: one driver call is in flight; the agent waits for it.
type working struct {
	seq     int
	in      *messages.ActInput
	replyTo *actor.PID
	cancel  context.CancelFunc
	words   string // the act in words, for its step event
	// recovering is a refusal decided before input whose fresh evidence
	// this call (an observation) fetches.
	recovering *messages.Error
}

// paused: a pause rule fired. Only status and close work until the owner
// resumes.
type paused struct{ reason string }

// takenOver: the owner has the page; the agent waits. hand is the child
// the owner drives the page through, when there is one.
type takenOver struct {
	hand    *actor.PID
	reason  string // why there is no page to drive, if there is none
	driving bool   // a dashboard tab drives the hand now
}

// handingBack: the owner resumed, and the session waits for the hand to
// stop accepting input and let go before it hands the page back.
type handingBack struct {
	hand  *actor.PID
	owner *actor.PID // who asked to resume, answered once handed back
}

// stopped: the owner stopped all browser access; the tabs are closed and
// the agent is refused until the owner resumes access (ResumeAll), after
// which it starts afresh: no tabs, no evidence, nothing replayed.
type stopped struct{}

// closing: released or ended; nothing more happens here.
type closing struct {
	reason string // the summary of why the task ended, as the controller keeps it
}

func (*ready) name() string       { return messages.StateReady }
func (*working) name() string     { return messages.StateWorking }
func (*paused) name() string      { return messages.StatePaused }
func (*takenOver) name() string   { return messages.StateTakenOver }
func (*handingBack) name() string { return messages.StateTakenOver }
func (*closing) name() string     { return messages.StateClosing }
func (*stopped) name() string     { return messages.StateStopped }

func (*ready) leave()       {}
func (w *working) leave()   { w.cancel() }
func (*paused) leave()      {}
func (*takenOver) leave()   {}
func (*handingBack) leave() {}
func (*closing) leave()     {}
func (*stopped) leave()     {}

// become makes s the session's state.
func (a *Actor) become(s state) { a.st = s }

func (*ready) receive(a *Actor, ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *messages.AgentCall:
		a.call(ctx, m)
	default:
		a.control(ctx)
	}
}

func (*working) receive(a *Actor, ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *messages.AgentCall:
		if m.Call.Tool == messages.ToolStatus {
			a.answerStatus(ctx)
			return
		}
		ctx.Respond(messages.Fail(messages.CodeBusy, "Another action of this conversation is still running; wait for its result, then continue."))
	default:
		a.control(ctx)
	}
}

func (p *paused) receive(a *Actor, ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *messages.AgentCall:
		a.refuseUnlessClose(ctx, m, a.surface().Over(m.Call.Surface).Paused(a.cfg.Conversation, p.reason))
	default:
		a.control(ctx)
	}
}

func (*takenOver) receive(a *Actor, ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *messages.AgentCall:
		a.refuseTakenOver(ctx, m)
	default:
		a.control(ctx)
	}
}

func (h *handingBack) receive(a *Actor, ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *messages.AgentCall:
		a.refuseTakenOver(ctx, m)
	case *messages.Resume, *messages.TakeOver:
		ctx.Respond(messages.OwnerFail(messages.Errorf(messages.CodeBusy,
			"Conversation %s is being handed back to its agent; wait a moment and check `buddi sessions`.", a.cfg.Conversation)))
	default:
		a.control(ctx)
	}
}

func (*stopped) receive(a *Actor, ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *messages.AgentCall:
		a.refuseUnlessClose(ctx, m, a.surface().Over(m.Call.Surface).Stopped())
	case *messages.TakeOver, *messages.Resume:
		ctx.Respond(messages.OwnerFail(messages.Errorf(messages.CodeStopped,
			"All browser access is stopped, so conversation %s has no tabs to take over or hand back; resume access on the Host browser page first.",
			a.cfg.Conversation)))
	case *messages.StopAll:
		ctx.Respond(&messages.OwnerReply{Result: a.infoPtr()})
	case *messages.ResumeAll:
		a.accessResumed(ctx)
	default:
		a.control(ctx)
	}
}

func (c *closing) receive(_ *Actor, ctx actor.Context) {
	switch ctx.Message().(type) {
	case *messages.AgentCall:
		// The same ending the controller gives once the session is gone.
		ctx.Respond(messages.Fail(messages.CodeNoTask, c.reason+" Ask the owner for a new task."))
	default:
		ctx.Respond(messages.OwnerFail(&messages.Error{Code: messages.CodeNoSession,
			Message: "That session has already ended."}))
	}
}

func (a *Actor) refuseTakenOver(ctx actor.Context, m *messages.AgentCall) {
	what := "this browser"
	if a.computer() {
		what = "at the computer"
	}
	a.refuseUnlessClose(ctx, m, messages.Errorf(messages.CodeTakenOver,
		"The owner has taken over %s; wait until they hand it back, then observe again before acting.", what))
}

func (a *Actor) refuseUnlessClose(ctx actor.Context, m *messages.AgentCall, e *messages.Error) {
	switch {
	case m.Call.Tool == messages.ToolStatus:
		a.answerStatus(ctx)
	case m.Call.Act != nil && messages.Spec(m.Call.Act.Action).Run == messages.RunClose:
		a.release(ctx, "the agent closed the session")
	default:
		ctx.Respond(messages.FailWith(e))
	}
}

// control handles the owner's controls in every live state.
func (a *Actor) control(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *messages.TakeOver:
		a.takeOver(ctx)
	case *messages.Resume:
		a.resume(ctx)
	case *messages.Release:
		why := m.Why
		if why == "" {
			why = "the owner released the session"
		}
		a.release(ctx, why)
	case *messages.StopAll:
		a.stopAll(ctx)
	case *messages.ResumeAll: // not stopped: nothing to resume
	}
}
