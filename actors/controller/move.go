package controller

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/controller/tasks"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/actors/session"
	"github.com/buddi-dev/buddi/messages"
)

// moveWait bounds the session's answer to a move; it answers from its
// mailbox without any I/O.
const moveWait = 10 * time.Second

// mover answers a move: the owner, or the agent that asked with
// browser.task.
type mover struct {
	agentID string // "" for the owner
	replyTo *actor.PID
	ok      func(*messages.Moved) any
	no      func(*messages.Error) any
}

func ownerMover(to *actor.PID) mover {
	return mover{replyTo: to,
		ok: func(m *messages.Moved) any { return &messages.OwnerReply{Result: m} },
		no: func(e *messages.Error) any { return fail(e) }}
}

func agentMover(id string, to *actor.PID) mover {
	return mover{agentID: id, replyTo: to,
		ok: func(m *messages.Moved) any { return &messages.ToolResult{Result: m} },
		no: func(e *messages.Error) any { return messages.FailWith(e) }}
}

// movedTo is the refusal of a call on a conversation that moved, or nil.
func (a *Actor) movedTo(conv string) *messages.Error {
	if to, ok := a.moved[conv]; ok {
		return messages.MovedAway(conv, to)
	}
	return nil
}

// notYours refuses an agent's call on a conversation that is another
// agent's, or that moved (naming the new id only to the agent it is for).
func (a *Actor) notYours(conv, agentID string) *messages.Error {
	if a.tasks.OtherAgent(conv, agentID) {
		return messages.CodeNotAllowed.Err()
	}
	return a.movedAway(conv, agentID)
}

// movedAway refuses a call on an id that moved: to the agent whose
// session it was, naming the new id; to any other, as not its own (the
// new id is not told). An id that never moved is nil.
func (a *Actor) movedAway(conv, agentID string) *messages.Error {
	to, moved := a.moved[conv]
	switch {
	case !moved:
		return nil
	case a.tasks.OtherAgent(to, agentID):
		return messages.CodeNotAllowed.Err()
	}
	return messages.MovedAway(conv, to)
}

// mayMove refuses a move that may not happen now.
func (a *Actor) mayMove(from, to, agentID string) *messages.Error {
	if e := messages.CheckMove(from, to); e != nil {
		return e
	}
	if e := a.notYours(from, agentID); agentID != "" && e != nil {
		return e
	}
	if e := a.movedTo(from); e != nil {
		return e
	}
	switch {
	case a.clustered():
		return messages.Errorf(messages.CodeNotAvailable, "Moving a conversation is not built for a cluster yet; release it and start a task under the new id.")
	case a.stopped():
		return messages.Errorf(messages.CodeStopped, "All browser access is stopped, so conversation %s cannot move; wait until access is resumed, then move it.", from)
	case a.moving[from] != "" || a.moving[to] != "":
		return messages.Errorf(messages.CodeBusy, "Conversation %s or %s is moving already; wait for that move's answer.", from, to)
	case a.sessions[from] == nil:
		return messages.Errorf(messages.CodeNoSession, "Conversation %s has no running session to move; a move takes a session with a running task.", from)
	}
	if _, taken := a.tasks.Get(to); taken || a.sessions[to] != nil || a.moved[to] != "" {
		return messages.CodeInUse.Err(to)
	}
	return a.clusterDown()
}

// move asks the session of from to answer to to, then stores and routes it
// under to and fences from. While the session answers, both ids are held:
// no task starts on either and an end of the session waits for the move.
func (a *Actor) move(ctx actor.Context, from, to string, who mover) {
	if e := a.mayMove(from, to, who.agentID); e != nil {
		reply(ctx, who.replyTo, who.no(e))
		return
	}
	e := a.sessions[from]
	a.moving[from], a.moving[to] = to, from
	f := ctx.RequestFuture(e.pid, &session.Move{To: to}, moveWait)
	a.after(ctx, f, who.replyTo, func(res any, err error) {
		delete(a.moving, from)
		delete(a.moving, to)
		mv, ok := res.(*session.Moved)
		switch {
		case err != nil || !ok:
			// The session may still take the move later: it takes the way
			// back behind it, so it keeps answering to from.
			ctx.Send(e.pid, &session.Move{To: from})
			reply(ctx, who.replyTo, who.no(messages.Errorf(messages.CodeTimeout,
				"Conversation %s did not answer the move in time; it stays where it was, so try again.", from)))
		case mv.Err != nil:
			reply(ctx, who.replyTo, who.no(mv.Err))
		default:
			a.commitMove(ctx, from, to, e, mv, who)
		}
		a.endDeferred(ctx, to)
	})
}

// commitMove files the moved session under to: the task, the session's
// record and steps, the owner's answers about sites and apps for this
// conversation and its Telegram binding, in one write, beside the note that
// fences from.
func (a *Actor) commitMove(ctx actor.Context, from, to string, e *entry, mv *session.Moved, who mover) {
	t := a.tasks.Move(from, to)
	delete(a.sessions, from)
	a.sessions[to] = e
	a.convOf[e.pid.Id] = to
	if c := a.carries[from]; c != nil {
		a.carries[to] = c
		delete(a.carries, from)
	}
	a.cfg.Routes.DropSession(from)
	a.cfg.Routes.PutSession(to, e.route)
	ops := []ledger.Op{
		ledger.Put(ledger.TaskKey(to), t), ledger.Put(ledger.SessionKey(to), mv.Record),
		ledger.Put(ledger.StepsKey(to), ledger.Steps{Used: mv.Record.StepsUsed}),
		ledger.Delete(ledger.TaskKey(from)), ledger.Delete(ledger.SessionKey(from)), ledger.Delete(ledger.StepsKey(from)),
	}
	ops = append(ops, a.fence(from, to)...)
	ops = append(ops, a.moveAnswers(from, to)...)
	bound := a.chat.Move(from, to)
	ops = append(ops, bound...)
	now := a.cfg.Now()
	gone := e.route.Shown()
	gone.Conversation, gone.State = from, messages.StateClosing
	a.cfg.Bus.Publish(&messages.SessionChanged{Session: gone, Ended: true, At: now})
	a.cfg.Bus.Publish(tasks.Changed(t, now))
	if len(bound) > 0 { // the chat follows the new id
		a.cfg.Bus.Publish(&messages.TelegramChanged{View: a.chat.View(), At: now})
	}
	a.cfg.Log.Info("conversation moved", "from", from, "to", to)
	answer := carried(from, to, t, mv)
	landed := &messages.ConversationMoved{From: from, To: to, Agent: t.Agent, At: now}
	a.write(ctx, &ledger.Write{Owner: who.agentID == "", Ops: ops}, who.replyTo, func(err error) {
		if err != nil {
			// In force already: keep trying to store it, and say so; views
			// follow once it is stored.
			ledger.Persist(ctx.ActorSystem(), a.cfg.Ledger, &ledger.Write{Ops: ops}, ledgerTimeout, func(err error) {
				if err == nil {
					a.cfg.Bus.Publish(landed)
				}
			})
			reply(ctx, who.replyTo, who.no(messages.CodeStoreFailed.Err("The move is in force, but it", err.Error()+"; buddi keeps trying to save it")))
			return
		}
		a.cfg.Bus.Publish(landed)
		reply(ctx, who.replyTo, who.ok(answer))
	})
}

// fence notes that from moved to to; a conversation that had moved to from
// now names to.
func (a *Actor) fence(from, to string) []ledger.Op {
	at := a.cfg.Now().UTC()
	a.moved[from] = to
	ops := []ledger.Op{ledger.Put(ledger.MovedKey(from), ledger.Moved{From: from, To: to, At: at})}
	for old, now := range a.moved {
		if now == from {
			a.moved[old] = to
			ops = append(ops, ledger.Put(ledger.MovedKey(old), ledger.Moved{From: old, To: to, At: at}))
		}
	}
	return ops
}

// unfence forgets the ids that moved to conv, whose last task was pruned:
// nobody calls the old id of a finished conversation any more, and the
// ledger's own pruning deletes their stored notes by the same rule, so the
// book keeps nothing the store no longer has and does not grow with every
// move the daemon ever made.
func (a *Actor) unfence(conv string) {
	for old, to := range a.moved {
		if to == conv {
			delete(a.moved, old)
		}
	}
}

// moveAnswers hands the owner's answers for this conversation (sites
// allowed once for its task, apps answered for it) to its new id.
func (a *Actor) moveAnswers(from, to string) []ledger.Op {
	var ops []ledger.Op
	now := a.cfg.Now()
	for _, ap := range a.sites.Move(from, to) {
		site := ap.Site.String()
		ops = append(ops, ledger.Delete(ledger.ApprovalKey(from, onceSubject(site))))
		if raw, err := json.Marshal(ap); err == nil {
			ops = append(ops, ledger.Put(ledger.ApprovalKey(to, onceSubject(site)),
				ledger.SiteOnce{Conversation: to, Approval: raw, At: now}))
		}
	}
	for _, ans := range a.apps.Move(from, to) {
		ops = append(ops, ledger.Delete(ledger.AppKey(from, ans.App)), ledger.Put(ledger.AppKey(to, ans.App),
			ledger.AppAnswer{Conversation: to, App: ans.App, Name: ans.Name, Decision: ans.Decision, At: now.UTC().Truncate(time.Millisecond)}))
	}
	return ops
}

// carried is the move's answer: the task's text and at most six short
// lines of buddi's own (never a page's text, an old call or a tree).
func carried(from, to string, t ledger.Task, mv *session.Moved) *messages.Moved {
	lines := []string{
		fmt.Sprintf("Moved from conversation %s to %s.", from, to),
		fmt.Sprintf("Steps used: %d of %d.", mv.Record.StepsUsed, t.MaxSteps),
		"The task ends at " + t.Expires.UTC().Format(time.RFC3339) + ".",
		"State: " + mv.State + ".",
	}
	if mv.Record.Paused {
		lines = append(lines, "Paused: "+messages.Clip(mv.Record.PauseReason, messages.MaxCarriedLine-8))
	}
	if mv.URL != "" {
		lines = append(lines, "Page: "+messages.Clip(mv.URL, messages.MaxCarriedLine-6))
	}
	lines = lines[:min(len(lines), messages.MaxCarried)]
	return &messages.Moved{From: from, To: to, Task: t.Description, Carried: lines,
		Text: fmt.Sprintf("The session now answers to conversation %s; observe before acting (refs from before the move are stale), or release it.", to)}
}
