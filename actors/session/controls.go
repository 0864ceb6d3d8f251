package session

import (
	"context"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// takeOver abandons the action in flight, stops a pending load, keeps the
// page and voids the agent's evidence at once; the owner is answered once
// the take-over is durable.
func (a *Actor) takeOver(ctx actor.Context) {
	where := ""
	if a.computer() {
		where = " at the computer"
	}
	a.interrupt(ctx, messages.Fail(messages.CodeTakenOver,
		"The owner took over"+where+" while this action ran; it was abandoned and not repeated. Wait for the owner to hand back, then observe again."))
	hand := a.hand(ctx)
	a.ev.void("the owner took over")
	reason := ""
	if drivers.IsOffline(a.cfg.Driver) {
		reason = messages.HandBrowserOffline
	}
	a.become(&takenOver{hand: hand, reason: reason})
	a.persistThenReply(ctx, ctx.Sender())
}

// resume hands back: old screenshots and evidence are cleared and the agent
// must observe first. A hand, if the take-over has one, lets go first.
func (a *Actor) resume(ctx actor.Context) {
	switch s := a.st.(type) {
	case *takenOver:
		if s.hand != nil {
			a.handBack(ctx, s.hand)
			return
		}
	case *paused:
	default:
		ctx.Respond(messages.OwnerFail(messages.Errorf(messages.CodeNotPaused,
			"Conversation %s is neither paused nor taken over; there is nothing to resume.", a.cfg.Conversation)))
		return
	}
	a.resumed(ctx, ctx.Sender())
}

// resumed gives the session back to its agent and answers owner once
// durable. After a take-over the owner may have changed the page: a new
// picture of it follows.
func (a *Actor) resumed(ctx actor.Context, owner *actor.PID) {
	_, paused := a.st.(*paused)
	if !paused {
		a.pageAt = a.cfg.Now()
	}
	a.rec.Epoch++
	a.fails = failures{}
	a.shots = nil
	a.ev.void("the owner resumed access; observe afresh")
	a.become(&ready{})
	a.persistThenReply(ctx, owner)
	if !paused {
		a.pictureSoon(ctx, nil)
	}
}

// stopAll abandons the action in flight, lets go of a take-over's hand,
// and closes this conversation's tabs (after a last picture of the page);
// the session is stopped, and shows so at once, until access is resumed.
// A pause or a take-over ends with it: there is no page left to inspect.
func (a *Actor) stopAll(ctx actor.Context) {
	a.interrupt(ctx, messages.Fail(messages.CodeStopped,
		"The owner stopped all browser access while this action ran; it was abandoned. Wait until the owner resumes it ("+a.surface().WayBack(messages.CodeStopped, "")+")."))
	a.ev.void("browser access was stopped")
	a.rec.Epoch++ // results of calls started before the Stop are fenced off
	hand := a.letGoOfHand(ctx)
	last := a.lastPicture(ctx, a.tabs)
	a.url, a.title, a.pageAt = "", "", a.cfg.Now()
	a.become(&stopped{})
	a.persist(ctx)
	a.closeTabs(ctx, hand, last, ctx.Sender(), &messages.OwnerReply{Result: a.infoPtr()})
}

// accessResumed ends the Stop for this session: the agent starts afresh,
// with no tabs and no evidence; nothing it was doing is replayed.
func (a *Actor) accessResumed(ctx actor.Context) {
	a.rec.Epoch++
	a.fails = failures{}
	a.shots = nil
	a.ev.void("browser access was resumed after a Stop; observe afresh")
	a.become(&ready{})
	a.persist(ctx)
}

// release ends the session and closes its tabs (other conversations keep theirs).
func (a *Actor) release(ctx actor.Context, why string) {
	a.interrupt(ctx, messages.Fail(messages.CodeReleased, "The session was released while this action ran; it was abandoned."))
	info := a.info()
	info.State = messages.StateClosing // answered once it has ended, not as it was
	var reply any = &messages.OwnerReply{Result: &info}
	if _, agent := ctx.Message().(*messages.AgentCall); agent {
		reply = &messages.ToolResult{Result: &messages.Closed{Closed: true,
			Text: "Closed this conversation's tabs and released the browser."}}
	}
	a.end(ctx, messages.CodeReleased, why, ctx.Sender(), reply)
}

// interrupt abandons the action in flight, answering its caller with res,
// and stops whatever the tabs are loading.
func (a *Actor) interrupt(ctx actor.Context, res *messages.ToolResult) {
	if tabs := a.tabs; tabs != nil {
		go tabs.Interrupt() // stopping loads may take the driver a while; not on the mailbox
	}
	w, ok := a.st.(*working)
	if !ok {
		return
	}
	w.cancel()
	ctx.Send(w.replyTo, res)
	a.cfg.Carry.take()
	a.become(&ready{})
}

// closeTabs closes the tabs off the mailbox, once the hand (if stopping)
// let go and a last picture of the page was taken, then answers replyTo.
func (a *Actor) closeTabs(ctx actor.Context, hand *actor.Future, last func(), replyTo *actor.PID, reply any) {
	tabs, log := a.tabs, a.cfg.Log
	a.tabs = nil
	sys := ctx.ActorSystem()
	a.off(func() {
		waitFor(hand)
		last()
		closeTabs(tabs, log)
		if replyTo != nil {
			sys.Root.Send(replyTo, reply)
		}
	})
}

// end finishes the session: its tabs close off the mailbox, then the
// controller makes the task's end durable (and then stops this actor), and
// only then is replyTo answered, so an acknowledged release survives a crash.
// The controller hears of the end only once the tabs are closed: it frees the
// conversation for a new task, and the driver would hand that task's session
// these very tabs, which this ending then closed under it. It still hears
// before anyone is answered, so an owner reacting to the agent's answer
// never finds the task still open.
func (a *Actor) end(ctx actor.Context, code messages.Code, why string, replyTo *actor.PID, reply any) {
	if _, done := a.st.(*closing); done {
		if replyTo != nil {
			ctx.Send(replyTo, reply)
		}
		return
	}
	hand := a.letGoOfHand(ctx)
	msg := &messages.SessionEnded{Conversation: a.cfg.Conversation, TaskCreated: a.task.Created,
		Code: code, Reason: summary(why, a.rec.StepsUsed, a.task.MaxSteps, a.url)}
	a.become(&closing{reason: msg.Reason})
	a.show()
	tabs, sys, log, ctrl := a.tabs, ctx.ActorSystem(), a.cfg.Log, a.cfg.Controller
	a.tabs = nil
	a.off(func() {
		waitFor(hand)
		closeTabs(tabs, log)
		f := sys.Root.RequestFuture(ctrl, msg, 15*time.Second)
		if _, err := f.Result(); err != nil {
			log.Warn("the controller did not confirm the end of a task", "conversation", msg.Conversation, "err", err)
		}
		if replyTo != nil {
			sys.Root.Send(replyTo, reply)
		}
	})
}

func closeTabs(tabs drivers.Tabs, log *slog.Logger) {
	if tabs == nil {
		return
	}
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := tabs.Close(c); err != nil {
		log.Warn("closing tabs failed", "err", err)
	}
}

// expire ends the task when its lifetime runs out.
func (a *Actor) expire(ctx actor.Context) {
	if _, done := a.st.(*closing); done {
		return
	}
	if left := a.task.Expires.Sub(a.cfg.Now()); left > 0 {
		a.armExpiry(ctx)
		return
	}
	a.interrupt(ctx, messages.Fail(messages.CodeExpired, "The task's time ran out while this action ran; it was abandoned."))
	a.end(ctx, messages.CodeExpired, "its time ran out", nil, nil)
}

// pause stops the agent until the owner resumes.
func (a *Actor) pause(ctx actor.Context, reason string) {
	a.ev.void("the session paused")
	a.become(&paused{reason: reason})
	a.persist(ctx)
	a.cfg.Log.Info("session paused", "conversation", a.cfg.Conversation, "reason", reason)
}
