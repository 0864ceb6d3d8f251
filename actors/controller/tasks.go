package controller

import (
	"fmt"
	"regexp"
	"sort"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// Task bounds.
const (
	DefaultSteps    = 80
	MaxSteps        = 80
	DefaultLifetime = 20 * time.Minute
	MaxLifetime     = 20 * time.Minute
	ledgerTimeout   = 5 * time.Second
)

var convPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// CheckConversation validates a conversation id.
func CheckConversation(c string) *messages.Error {
	if !convPattern.MatchString(c) {
		return &messages.Error{Code: "bad_input", Message: fmt.Sprintf(
			"The conversation id %q is not valid; use 1 to 64 letters, digits, dots, dashes or underscores.", c)}
	}
	return nil
}

// startTask mints a task for the owner.
func (a *Actor) startTask(ctx actor.Context, m *messages.StartTask) {
	if e := a.checkTask(m); e != nil {
		ctx.Respond(&messages.OwnerReply{Error: e})
		return
	}
	t := a.newTask(m.Agent, m.Conversation, m.Description, m.Steps, m.Lifetime)
	a.activate(ctx, t, ctx.Sender())
}

func (a *Actor) checkTask(m *messages.StartTask) *messages.Error {
	if e := CheckConversation(m.Conversation); e != nil {
		return e
	}
	if a.agents[m.Agent] == nil {
		return &messages.Error{Code: "unknown_agent", Message: fmt.Sprintf("There is no agent %q; add it with `buddi agent add %s`.", m.Agent, m.Agent)}
	}
	if m.Description == "" {
		return &messages.Error{Code: "bad_input", Message: "A task needs a description of what the agent should do."}
	}
	if m.Steps < 0 || m.Steps > MaxSteps {
		return &messages.Error{Code: "bad_input", Message: fmt.Sprintf("The step budget %d is out of range; use 1 to %d.", m.Steps, MaxSteps)}
	}
	if m.Lifetime < 0 || m.Lifetime > MaxLifetime {
		return &messages.Error{Code: "bad_input", Message: fmt.Sprintf("The lifetime %s is out of range; use at most %s.", m.Lifetime, MaxLifetime)}
	}
	if a.sessions[m.Conversation] != nil {
		return &messages.Error{Code: "task_active", Message: fmt.Sprintf("Conversation %s already has a running task; release it first (`buddi release %s`).", m.Conversation, m.Conversation)}
	}
	return nil
}

func (a *Actor) newTask(agent, conv, desc string, steps int, life time.Duration) *ledger.Task {
	if steps == 0 {
		steps = DefaultSteps
	}
	if life == 0 {
		life = DefaultLifetime
	}
	return &ledger.Task{Conversation: conv, Agent: agent, Description: desc,
		State: ledger.TaskPending, MaxSteps: steps, Lifetime: life, Created: a.cfg.Now()}
}

// activate starts the task: durable first, then the session, then the reply.
func (a *Actor) activate(ctx actor.Context, t *ledger.Task, replyTo *actor.PID) {
	t.State = ledger.TaskActive
	t.Started = a.cfg.Now()
	t.Expires = t.Started.Add(t.Lifetime)
	t.EndReason = ""
	a.tasks[t.Conversation] = t
	w := &messages.LedgerWrite{Ops: []messages.LedgerOp{
		ledger.Put(ledger.TaskKey(t.Conversation), *t), ledger.Delete(ledger.SessionKey(t.Conversation)),
		ledger.Delete(ledger.StepsKey(t.Conversation))}}
	f := ctx.RequestFuture(a.ledger, w, ledgerTimeout)
	a.after(ctx, f, replyTo, func(res any, err error) {
		if err = ledger.Written(res, err); err != nil {
			reply(ctx, replyTo, fail("store_failed", "The task could not be saved: "+err.Error()))
			return
		}
		if e := a.spawn(ctx, t); e != nil {
			t.State, t.EndReason = ledger.TaskEnded, e.Message
			ctx.Send(a.ledger, &messages.LedgerWrite{Ops: []messages.LedgerOp{ledger.Put(ledger.TaskKey(t.Conversation), *t)}})
			reply(ctx, replyTo, &messages.OwnerReply{Error: e})
			return
		}
		reply(ctx, replyTo, &messages.OwnerReply{Result: *t})
	})
}

// askTask is browser.task: a pending request, or at once for auto-approve agents.
func (a *Actor) askTask(ctx actor.Context, m *messages.ToolCall) {
	var in messages.TaskInput
	if e := decodeTask(m.Input, &in); e != nil {
		ctx.Respond(&messages.ToolResult{Error: e})
		return
	}
	if e := CheckConversation(m.Conversation); e != nil {
		ctx.Respond(&messages.ToolResult{Error: e})
		return
	}
	if a.stop.Stopped {
		ctx.Respond(messages.Fail("stopped", "The owner stopped all browser access; no task can start until the owner resumes it."))
		return
	}
	if t := a.tasks[m.Conversation]; t != nil && t.Agent != m.Agent {
		ctx.Respond(messages.Fail("not_allowed", "This conversation belongs to another agent; use your own conversation id."))
		return
	}
	if a.sessions[m.Conversation] != nil {
		ctx.Respond(messages.Fail("task_active", "This conversation already has a running task; use it."))
		return
	}
	steps := min(max(in.Steps, 0), MaxSteps)
	life := min(time.Duration(max(in.Minutes, 0))*time.Minute, MaxLifetime)
	t := a.newTask(m.Agent, m.Conversation, in.Description, steps, life)
	if !a.agents[m.Agent].AutoApprove {
		a.tasks[t.Conversation] = t
		ctx.Send(a.ledger, &messages.LedgerWrite{Ops: []messages.LedgerOp{ledger.Put(ledger.TaskKey(t.Conversation), *t)}})
		ctx.Respond(&messages.ToolResult{Result: map[string]any{"state": "pending",
			"text": "Asked the owner for this task; wait until it is accepted, then call browser.status."}})
		return
	}
	sender := ctx.Sender()
	a.activateFor(ctx, t, sender)
}

// activateFor activates and answers an agent rather than the owner.
func (a *Actor) activateFor(ctx actor.Context, t *ledger.Task, agent *actor.PID) {
	probe := ctx.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		if r, ok := c.Message().(*messages.OwnerReply); ok {
			res := &messages.ToolResult{Error: r.Error}
			if r.Error == nil {
				res.Result = map[string]any{"state": "active", "task": *t,
					"text": fmt.Sprintf("Task started: %d steps within %s.", t.MaxSteps, t.Lifetime)}
			}
			c.Send(agent, res)
			c.Stop(c.Self())
		}
	}))
	a.activate(ctx, t, probe)
}

// decideTask is the owner's answer to a pending task.
func (a *Actor) decideTask(ctx actor.Context, m *messages.DecideTask) {
	t := a.tasks[m.Conversation]
	if t == nil || t.State != ledger.TaskPending {
		ctx.Respond(fail("no_pending_task", fmt.Sprintf("Conversation %s has no task waiting for a decision.", m.Conversation)))
		return
	}
	if m.Accept {
		a.activate(ctx, t, ctx.Sender())
		return
	}
	t.State = ledger.TaskRefused
	ctx.Send(a.ledger, &messages.LedgerWrite{Ops: []messages.LedgerOp{ledger.Put(ledger.TaskKey(t.Conversation), *t)}})
	ctx.Respond(&messages.OwnerReply{Result: *t})
}

// ended closes a task whose session is over: the end is durable before it
// is acknowledged (the session answers the owner only then), and the session
// is poisoned so what is already in its mailbox is answered, not dropped.
func (a *Actor) ended(ctx actor.Context, m *messages.SessionEnded) {
	ops := []messages.LedgerOp{ledger.Delete(ledger.SessionKey(m.Conversation)), ledger.Delete(ledger.StepsKey(m.Conversation))}
	if t := a.tasks[m.Conversation]; t != nil {
		t.State, t.EndReason = ledger.TaskEnded, m.Reason
		ops = append(ops, ledger.Put(ledger.TaskKey(m.Conversation), *t))
	}
	if e := a.sessions[m.Conversation]; e != nil {
		a.drop(m.Conversation, e)
		ctx.Poison(e.pid)
	}
	a.forget(m.Conversation)
	a.cfg.Log.Info("task ended", "conversation", m.Conversation, "code", m.Code, "summary", m.Reason)
	sender := ctx.Sender()
	f := ctx.RequestFuture(a.ledger, &messages.LedgerWrite{Ops: ops}, ledgerTimeout)
	a.after(ctx, f, sender, func(res any, err error) {
		if err = ledger.Written(res, err); err != nil {
			a.cfg.Log.Error("the end of a task could not be saved", "conversation", m.Conversation, "err", err)
		}
		reply(ctx, sender, &messages.LedgerWritten{Err: err})
	})
}

// forget drops per-conversation state that only a live session needs.
func (a *Actor) forget(conv string) {
	delete(a.carries, conv)
	for key := range a.sites.pending {
		if len(key) > len(conv) && key[:len(conv)+1] == conv+"|" {
			delete(a.sites.pending, key)
		}
	}
}

func (a *Actor) taskList() []ledger.Task {
	out := make([]ledger.Task, 0, len(a.tasks))
	for _, t := range a.tasks {
		out = append(out, *t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out
}

func reply(ctx actor.Context, to *actor.PID, msg any) {
	if to != nil {
		ctx.Send(to, msg)
	}
}
