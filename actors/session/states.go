package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/messages"
)

// ready: waiting with its tabs open; the agent may act.
func (a *Actor) ready(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *messages.ToolCall:
		a.call(ctx, m)
	default:
		a.control(ctx)
	}
}

// working: one driver call is in flight; the agent waits for it.
func (a *Actor) working(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *messages.ToolCall:
		if m.Tool == messages.ToolStatus {
			ctx.Respond(a.statusResult())
			return
		}
		ctx.Respond(messages.Fail("busy", "Another action of this conversation is still running; wait for its result, then continue."))
	default:
		a.control(ctx)
	}
}

// paused: a pause rule fired. Only status and close work until the owner resumes.
func (a *Actor) paused(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *messages.ToolCall:
		a.refuseUnlessClose(ctx, m, "paused",
			"The session is paused ("+a.rec.PauseReason+"); ask the owner to resume access (`buddi resume "+a.cfg.Conversation+"`), then observe again.")
	default:
		a.control(ctx)
	}
}

// takenOver: the owner has the page. The agent waits.
func (a *Actor) takenOver(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *messages.ToolCall:
		a.refuseUnlessClose(ctx, m, "taken_over",
			"The owner has taken over this browser; wait until they hand it back, then observe again before acting.")
	default:
		a.control(ctx)
	}
}

// closing: released or ended; nothing more happens here.
func (a *Actor) closing(ctx actor.Context) {
	switch ctx.Message().(type) {
	case *messages.ToolCall:
		ctx.Respond(messages.Fail("no_task", "This session has ended; ask the owner for a new task."))
	case *messages.TakeOver, *messages.Resume, *messages.Release, *messages.StopAll:
		ctx.Respond(&messages.OwnerReply{Error: &messages.Error{Code: "no_session",
			Message: "That session has already ended."}})
	}
}

func (a *Actor) refuseUnlessClose(ctx actor.Context, m *messages.ToolCall, code, msg string) {
	switch {
	case m.Tool == messages.ToolStatus:
		ctx.Respond(a.statusResult())
	case m.Act != nil && m.Act.Action == "close":
		a.release(ctx, "the agent closed the session")
	default:
		ctx.Respond(messages.Fail(code, msg))
	}
}

// control handles the owner's controls in every live state.
func (a *Actor) control(ctx actor.Context) {
	switch ctx.Message().(type) {
	case *messages.TakeOver:
		a.takeOver(ctx)
	case *messages.Resume:
		a.resume(ctx)
	case *messages.Release:
		a.release(ctx, "the owner released the session")
	case *messages.StopAll:
		a.stopAll(ctx)
	}
}
