package session

import (
	"context"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

const ledgerTimeout = 5 * time.Second

// takeOver abandons the action in flight, stops a pending load, keeps the
// page, voids the agent's evidence, and answers once the pause is durable.
func (a *Actor) takeOver(ctx actor.Context) {
	a.interrupt(ctx, messages.Fail("taken_over",
		"The owner took over while this action ran; it was abandoned and not repeated. Wait for the owner to hand back, then observe again."))
	a.rec.TakenOver = true
	a.ev.void("the owner took over")
	a.behavior.Become(a.takenOver)
	a.persistThenReply(ctx)
}

// resume hands back: old screenshots and evidence are cleared and the agent
// must observe first.
func (a *Actor) resume(ctx actor.Context) {
	if !a.rec.TakenOver && !a.rec.Paused {
		ctx.Respond(&messages.OwnerReply{Error: &messages.Error{Code: "not_paused",
			Message: "Conversation " + a.cfg.Conversation + " is neither paused nor taken over; there is nothing to resume."}})
		return
	}
	a.rec.TakenOver, a.rec.Paused, a.rec.PauseReason = false, false, ""
	a.rec.Epoch++
	a.fails = failures{}
	a.shots = nil
	a.ev.void("the owner resumed access; observe afresh")
	a.behavior.Become(a.ready)
	a.persistThenReply(ctx)
}

// stopAll abandons the action in flight and closes this conversation's tabs;
// the controller refuses further work until access is resumed.
func (a *Actor) stopAll(ctx actor.Context) {
	a.closeLate = a.tabs == nil && a.inflight != nil
	a.interrupt(ctx, messages.Fail("stopped",
		"The owner stopped all browser access while this action ran; it was abandoned. Ask the owner to resume access."))
	a.ev.void("browser access was stopped")
	a.rec.Epoch++ // results of calls started before the Stop are fenced off
	a.settle()
	a.publish(ctx)
	a.closeTabs(ctx, ctx.Sender(), &messages.OwnerReply{Result: a.info()})
}

// settle becomes the state the record says, once nothing is in flight.
func (a *Actor) settle() {
	switch {
	case a.ended:
		a.behavior.Become(a.closing)
	case a.rec.TakenOver:
		a.behavior.Become(a.takenOver)
	case a.rec.Paused:
		a.behavior.Become(a.paused)
	default:
		a.behavior.Become(a.ready)
	}
}

// release ends the session and closes its tabs (other conversations keep theirs).
func (a *Actor) release(ctx actor.Context, why string) {
	a.interrupt(ctx, messages.Fail("released", "The session was released while this action ran; it was abandoned."))
	var reply any = &messages.OwnerReply{Result: a.info()}
	if _, agent := ctx.Message().(*messages.ToolCall); agent {
		reply = &messages.ToolResult{Result: map[string]any{"closed": true, "text": "Closed this conversation's tabs and released the browser."}}
	}
	a.end(ctx, "released", why, ctx.Sender(), reply)
}

// interrupt abandons the in-flight action, answering its caller with res.
func (a *Actor) interrupt(ctx actor.Context, res *messages.ToolResult) {
	if tabs := a.tabs; tabs != nil {
		go tabs.Interrupt() // stopping loads may take the driver a while; not on the mailbox
	}
	if a.inflight == nil {
		return
	}
	a.inflight.cancel()
	ctx.Send(a.inflight.replyTo, res)
	a.inflight = nil
	a.cfg.Carry.take()
}

// closeTabs closes the tabs off the mailbox, then answers replyTo.
func (a *Actor) closeTabs(ctx actor.Context, replyTo *actor.PID, reply any) {
	tabs, log := a.tabs, a.cfg.Log
	a.tabs = nil
	sys := ctx.ActorSystem()
	go func() {
		closeTabs(tabs, log)
		if replyTo != nil {
			sys.Root.Send(replyTo, reply)
		}
	}()
}

// end finishes the session: its tabs close off the mailbox, the controller
// makes the task's end durable (and then stops this actor), and only then is
// replyTo answered, so an acknowledged release survives a crash.
func (a *Actor) end(ctx actor.Context, code, why string, replyTo *actor.PID, reply any) {
	if a.ended {
		if replyTo != nil {
			ctx.Send(replyTo, reply)
		}
		return
	}
	a.ended = true
	a.behavior.Become(a.closing)
	msg := &messages.SessionEnded{Conversation: a.cfg.Conversation,
		Code: code, Reason: summary(why, a.rec.StepsUsed, a.task.MaxSteps, a.url)}
	// The controller hears of the end now, before anyone is answered, so an
	// owner reacting to the agent's answer never finds the task still open.
	f := ctx.RequestFuture(a.cfg.Controller, msg, 15*time.Second)
	tabs, sys, log := a.tabs, ctx.ActorSystem(), a.cfg.Log
	a.tabs = nil
	go func() {
		closeTabs(tabs, log)
		if _, err := f.Result(); err != nil {
			log.Warn("the controller did not confirm the end of a task", "conversation", msg.Conversation, "err", err)
		}
		if replyTo != nil {
			sys.Root.Send(replyTo, reply)
		}
	}()
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
	if a.ended {
		return
	}
	if left := a.task.Expires.Sub(a.cfg.Now()); left > 0 {
		a.armExpiry(ctx)
		return
	}
	a.interrupt(ctx, messages.Fail("expired", "The task's time ran out while this action ran; it was abandoned."))
	a.end(ctx, "expired", "its time ran out", nil, nil)
}

// pause stops the agent until the owner resumes.
func (a *Actor) pause(ctx actor.Context, reason string) {
	a.rec.Paused, a.rec.PauseReason = true, reason
	a.ev.void("the session paused")
	a.behavior.Become(a.paused)
	a.persist(ctx, false)
	a.cfg.Log.Info("session paused", "conversation", a.cfg.Conversation, "reason", reason)
}

// persist writes the session record; sync for state changes, not for steps.
func (a *Actor) persist(ctx actor.Context, steps bool) {
	ctx.Send(a.cfg.Ledger, a.write(steps))
	a.publish(ctx)
}

func (a *Actor) write(steps bool) *messages.LedgerWrite {
	if steps {
		return &messages.LedgerWrite{NoSync: true, Ops: []messages.LedgerOp{
			ledger.Put(ledger.StepsKey(a.cfg.Conversation), ledger.Steps{Used: a.rec.StepsUsed})}}
	}
	return &messages.LedgerWrite{Ops: []messages.LedgerOp{
		ledger.Put(ledger.SessionKey(a.cfg.Conversation), a.rec),
		ledger.Put(ledger.StepsKey(a.cfg.Conversation), ledger.Steps{Used: a.rec.StepsUsed})}}
}

// persistThenReply answers the owner only once the ledger has the change.
// The wait runs off the mailbox, so the answer is sent even if this session
// stops meanwhile (a continuation would be dropped with the actor).
func (a *Actor) persistThenReply(ctx actor.Context) {
	sender, info := ctx.Sender(), a.info()
	f := ctx.RequestFuture(a.cfg.Ledger, a.write(false), ledgerTimeout)
	a.publish(ctx)
	if sender == nil {
		return
	}
	sys := ctx.ActorSystem()
	go func() {
		if err := ledger.Written(f.Result()); err != nil {
			sys.Root.Send(sender, &messages.OwnerReply{Error: &messages.Error{Code: "store_failed",
				Message: "The change could not be saved: " + err.Error()}})
			return
		}
		sys.Root.Send(sender, &messages.OwnerReply{Result: info})
	}()
}

func (a *Actor) publish(ctx actor.Context) {
	ctx.Send(a.cfg.Controller, &messages.SessionState{Info: a.info()})
}
