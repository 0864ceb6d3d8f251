package controller

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/controller/chat"
	"github.com/buddi-dev/buddi/actors/controller/registry"
	"github.com/buddi-dev/buddi/actors/controller/tasks"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// startTask mints a task for the owner.
func (a *Actor) startTask(ctx actor.Context, m *messages.StartTask) {
	if e := a.checkTask(m); e != nil {
		ctx.Respond(fail(e))
		return
	}
	ag, _ := a.agents.Get(m.Agent)
	t := a.tasks.Pending(ag, m.Conversation, m.Description, m.Steps, m.Lifetime)
	a.activate(ctx, t, ctx.Sender(), toOwner, m.Surface)
}

// answerer makes the answer of an activation: to the owner, or to an agent
// whose request started at once.
type answerer struct {
	ok func(ledger.Task) any
	no func(*messages.Error) any
}

var (
	toOwner = answerer{
		ok: func(t ledger.Task) any { return &messages.OwnerReply{Result: viewPtr(t)} },
		no: func(e *messages.Error) any { return fail(e) },
	}
	toAgent = answerer{
		ok: func(t ledger.Task) any { return &messages.ToolResult{Result: tasks.Started(t)} },
		no: func(e *messages.Error) any { return messages.FailWith(e) },
	}
)

func (a *Actor) checkTask(m *messages.StartTask) *messages.Error {
	if e := messages.CheckConversation(m.Conversation); e != nil {
		return e
	}
	if _, ok := a.agents.Get(m.Agent); !ok {
		return registry.Unknown(m.Agent)
	}
	if e := messages.CheckTask(m); e != nil {
		return e
	}
	if e := a.movedTo(m.Conversation); e != nil {
		return e
	}
	if _, moving := a.moving[m.Conversation]; moving || a.sessions[m.Conversation] != nil {
		return messages.Errorf(messages.CodeTaskActive, "Conversation %s already has a running task; release it first (`buddi release %s`).", m.Conversation, m.Conversation)
	}
	if a.stopped() {
		return messages.Errorf(messages.CodeStopped, "All browser access is stopped, so no task can start; resume access first (%s), then start it.",
			m.Surface.WayBack(messages.CodeStopped, ""))
	}
	return nil
}

// activate starts the task: durable first, then the session, then the
// answer to replyTo. A task the owner started from Telegram binds its
// conversation to the paired chat in the same write.
func (a *Actor) activate(ctx actor.Context, t ledger.Task, replyTo *actor.PID, answer answerer, surface messages.Surface) {
	a.activateThen(ctx, t, replyTo, surface, func(t ledger.Task, e *messages.Error) {
		if e != nil {
			reply(ctx, replyTo, answer.no(e))
			return
		}
		reply(ctx, replyTo, answer.ok(t))
	})
}

// activateThen starts the task, durable first, then the session, and runs
// then with the outcome in the mailbox.
func (a *Actor) activateThen(ctx actor.Context, t ledger.Task, replyTo *actor.PID, surface messages.Surface, then func(ledger.Task, *messages.Error)) {
	t = a.tasks.Activate(t)
	a.tasks.Put(t)
	w := &ledger.Write{Owner: true, Ops: []ledger.Op{
		ledger.Put(ledger.TaskKey(t.Conversation), t), ledger.Delete(ledger.SessionKey(t.Conversation)),
		ledger.Delete(ledger.StepsKey(t.Conversation))}}
	bind := surface == messages.SurfaceTelegram && a.chat.Paired()
	if bind {
		w.Ops = append(w.Ops, chat.BoundOp(t.Conversation, a.cfg.Now()))
	}
	a.write(ctx, w, replyTo, func(err error) {
		if err != nil {
			then(t, messages.CodeStoreFailed.Err("The task", err.Error()))
			return
		}
		if bind {
			a.bound(t.Conversation)
		}
		if e := a.spawn(ctx, t); e != nil {
			t = tasks.End(t, e.Message, a.cfg.Now())
			a.tasks.Put(t)
			ctx.Send(a.cfg.Ledger, &ledger.Write{Owner: true, Ops: []ledger.Op{ledger.Put(ledger.TaskKey(t.Conversation), t)}})
			a.cfg.Bus.Publish(tasks.Changed(t, a.cfg.Now()))
			then(t, e)
			return
		}
		a.cfg.Bus.Publish(tasks.Changed(t, a.cfg.Now()))
		then(t, nil)
	})
}

func viewPtr(t ledger.Task) *messages.TaskView {
	v := tasks.View(t)
	return &v
}

// askTask is browser.task: a pending request, or at once for auto-approve
// agents. An agent's requests are bounded: at most tasks.MaxPending wait at
// a time, each lapses after tasks.PendingLife, and they may come no faster
// than its rate limit allows.
func (a *Actor) askTask(ctx actor.Context, m *messages.ToolCall, ag ledger.Agent) {
	in, e := messages.DecodeTask(m.Input)
	if e != nil {
		ctx.Respond(messages.FailWith(e))
		return
	}
	if in.MoveTo != "" {
		a.move(ctx, m.Conversation, in.MoveTo, agentMover(ag.ID, ctx.Sender()))
		return
	}
	if e := messages.CheckConversation(m.Conversation); e != nil {
		ctx.Respond(messages.FailWith(e))
		return
	}
	a.sweep(ctx)
	if e := a.mayAsk(m, ag); e != nil {
		ctx.Respond(messages.FailWith(e))
		return
	}
	steps, life := in.Budget()
	t := a.tasks.Pending(ag, m.Conversation, in.Description, steps, life)
	if !ag.AutoApprove {
		a.tasks.Put(t)
		ctx.Send(a.cfg.Ledger, &ledger.Write{Ops: []ledger.Op{ledger.Put(ledger.TaskKey(t.Conversation), t)}})
		a.cfg.Bus.Publish(tasks.Changed(t, a.cfg.Now()))
		ctx.Respond(&messages.ToolResult{Result: tasks.Asked()})
		return
	}
	a.activate(ctx, t, ctx.Sender(), toAgent, m.Surface)
}

// mayAsk refuses a task request that may not be filed now.
func (a *Actor) mayAsk(m *messages.ToolCall, ag ledger.Agent) *messages.Error {
	conv := m.Conversation
	t, waiting := a.tasks.Get(conv)
	waiting = waiting && t.State == ledger.TaskPending
	down := a.clusterDown()
	// A task of another agent that ended holds the conversation no more
	// (Claimed, below, refuses a live one); an id that moved away is
	// refused here.
	if e := a.movedAway(conv, ag.ID); e != nil {
		return e
	}
	switch {
	case a.stopped():
		return messages.Errorf(messages.CodeStopped, "The owner stopped all browser access, so no task can start; wait until the owner resumes it (%s), then ask again.", a.surfaceOf(conv).Over(m.Surface).WayBack(messages.CodeStopped, ""))
	case down != nil:
		return down
	case a.tasks.Claimed(conv, ag.ID):
		return messages.CodeNotAllowed.Err()
	case a.sessions[conv] != nil || a.moving[conv] != "":
		return &messages.Error{Code: messages.CodeTaskActive, Message: "This conversation already has a running task; use it."}
	case !waiting && a.tasks.PendingOf(ag.ID) >= tasks.MaxPending:
		return messages.Errorf(messages.CodeTooManyRequests, "%d of your task requests already wait for the owner; wait for answers before asking for more.", tasks.MaxPending)
	case ag.AutoApprove && a.heldBy(ag.ID) >= AgentSessions:
		return messages.Errorf(messages.CodeTooManySessions, "You already hold %d of the browser's sessions; close one (the close action) before asking for another.", AgentSessions)
	case !a.cfg.Limits.TaskRequest(ag.ID):
		return &messages.Error{Code: messages.CodeTooManyRequests, Message: "Task requests are coming too fast; wait a minute before asking again."}
	}
	return nil
}

// sweep lapses requests that waited too long, deletes the finished tasks
// past the retention with their conversations' records, and forgets the
// ones past the book's bound, which the store keeps until the retention
// (for good with none).
func (a *Actor) sweep(ctx actor.Context) {
	var ops []ledger.Op
	for _, t := range a.tasks.Lapse() {
		ops = append(ops, ledger.Put(ledger.TaskKey(t.Conversation), t))
		a.cfg.Bus.Publish(tasks.Changed(t, a.cfg.Now()))
	}
	var before time.Time
	if a.cfg.Retention > 0 {
		before = a.cfg.Now().Add(-a.cfg.Retention)
	}
	expired, overflow := a.tasks.Prune(before)
	for _, conv := range expired {
		ops = append(ops, ledger.Delete(ledger.TaskKey(conv)))
		ops = append(ops, a.forgetConversation(conv)...)
		ops = append(ops, a.unbind(conv)...)
		a.unfence(conv)
	}
	for _, conv := range overflow {
		a.forgetConversation(conv) // in memory only: its records stay stored
		a.unbind(conv)
	}
	if len(ops) > 0 {
		ctx.Send(a.cfg.Ledger, &ledger.Write{Ops: ops})
	}
}

// unbind drops conv's binding to the paired chat, for a conversation whose
// last task was pruned: the ledger's own pruning drops the stored binding
// of such a conversation too, and the book must not keep what the store
// no longer has.
func (a *Actor) unbind(conv string) []ledger.Op {
	if !a.chat.Bound(conv) {
		return nil
	}
	ops, _ := a.chat.Bind(conv, false, a.cfg.Now())
	return ops
}

// decideTask is the owner's answer to a pending task.
func (a *Actor) decideTask(ctx actor.Context, m *messages.DecideTask) {
	a.sweep(ctx)
	t, e := a.tasks.Decidable(m.Conversation)
	if e != nil {
		ctx.Respond(fail(e))
		return
	}
	if m.Accept {
		a.activate(ctx, t, ctx.Sender(), toOwner, m.Surface)
		return
	}
	t, _ = a.tasks.Refuse(m.Conversation)
	a.tasks.Put(t)
	a.cfg.Bus.Publish(tasks.Changed(t, a.cfg.Now()))
	ctx.Send(a.cfg.Ledger, &ledger.Write{Owner: true, Ops: []ledger.Op{ledger.Put(ledger.TaskKey(t.Conversation), t)}})
	ctx.Respond(&messages.OwnerReply{Result: viewPtr(t)})
}

// ended closes a task whose session is over: the session stops at once, and
// the end is durable before it is acknowledged (the session answers whoever
// released it only then); the write is retried until it lands. The session
// is poisoned so what is already in its mailbox is answered, not dropped.
func (a *Actor) ended(ctx actor.Context, m *messages.SessionEnded) {
	if _, moving := a.moving[m.Conversation]; moving && a.sessions[m.Conversation] == nil {
		// The session moved and then ended before the move was filed: end
		// it once it is.
		a.deferred[m.Conversation] = deferredEnd{m: m, sender: ctx.Sender()}
		return
	}
	a.endedFor(ctx, m, ctx.Sender())
}

// deferredEnd is a session's end that arrived while its move was filed.
type deferredEnd struct {
	m      *messages.SessionEnded
	sender *actor.PID
}

// endDeferred runs the end of conv that waited for its move.
func (a *Actor) endDeferred(ctx actor.Context, conv string) {
	if d, ok := a.deferred[conv]; ok {
		delete(a.deferred, conv)
		a.endedFor(ctx, d.m, d.sender)
	}
}

// endedFor is ended, answering sender.
func (a *Actor) endedFor(ctx actor.Context, m *messages.SessionEnded, sender *actor.PID) {
	if t, ok := a.tasks.Get(m.Conversation); ok && !m.TaskCreated.IsZero() && !t.Created.Equal(m.TaskCreated) {
		a.cfg.Log.Info("the end of an earlier task arrived after a newer one started; the newer one goes on", "conversation", m.Conversation)
		reply(ctx, sender, &ledger.Written{})
		return
	}
	ops := []ledger.Op{ledger.Delete(ledger.SessionKey(m.Conversation)), ledger.Delete(ledger.StepsKey(m.Conversation))}
	if t, ok := a.tasks.Get(m.Conversation); ok {
		t = tasks.End(t, m.Reason, a.cfg.Now())
		a.tasks.Put(t)
		ops = append(ops, ledger.Put(ledger.TaskKey(m.Conversation), t))
		a.cfg.Bus.Publish(tasks.Changed(t, a.cfg.Now()))
	}
	if e := a.sessions[m.Conversation]; e != nil {
		a.drop(m.Conversation, e)
		ctx.Poison(e.pid)
	}
	ops = append(ops, a.forget(m.Conversation)...)
	a.cfg.Log.Info("task ended", "conversation", m.Conversation, "code", m.Code, "summary", m.Reason)
	sys := ctx.ActorSystem()
	w := &ledger.Write{Owner: m.Code == messages.CodeReleased, Ops: ops}
	ledger.Persist(sys, a.cfg.Ledger, w, ledgerTimeout, func(err error) {
		if err != nil {
			a.cfg.Log.Error("the end of a task is not saved yet; retrying", "conversation", m.Conversation, "err", err)
		}
		if sender != nil {
			sys.Root.Send(sender, &ledger.Written{Err: err})
		}
	})
}
