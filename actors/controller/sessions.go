package controller

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors"
	"github.com/buddi-dev/buddi/actors/controller/tasks"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/actors/routes"
	"github.com/buddi-dev/buddi/actors/session"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// spawn places a session on a profile with room, starts its actor and
// routes its conversation's calls to it.
func (a *Actor) spawn(ctx actor.Context, t ledger.Task) *messages.Error {
	if a.switching {
		return messages.CodeBusySettings.Err()
	}
	c, cancel := contextFor(openWait)
	defer cancel()
	idx, drv, e := a.pool.Place(c, t.AgentID)
	if e != nil {
		return e
	}
	carry := a.carries[t.Conversation]
	if carry == nil {
		carry = &session.Carry{}
		a.carries[t.Conversation] = carry
	}
	route := &routes.Session{Agent: t.Agent, AgentID: t.AgentID}
	route.Show(messages.SessionInfo{Conversation: t.Conversation, Agent: t.Agent, State: messages.StateReady,
		Task: t.Description, StepsMax: t.MaxSteps, Expires: t.Expires, Profile: idx})
	props := actor.PropsFromProducer(session.New(session.Config{
		Conversation: t.Conversation, Agent: t.Agent, AgentID: t.AgentID, Limits: a.cfg.Limits, Profile: idx,
		Store: a.cfg.Store, Ledger: a.cfg.Ledger, Controller: ctx.Self(),
		Driver: drv, Policy: a.cfg.Policy, Secrets: a.cfg.Secrets, Reach: a.cfg.Reach, Carry: carry, Route: route, Bus: a.cfg.Bus,
		Hand: a.cfg.Hand, Log: a.cfg.Log, Chaos: a.cfg.Chaos, Now: a.cfg.Now, Acts: a.cfg.Acts, Work: a.cfg.Work,
		Surface: a.surfaceOf(t.Conversation),
	}), actor.WithDispatcher(actors.Dispatcher))
	// Each spawn gets its own name: the previous session of the conversation
	// may still be stopping, and its Terminated must not match this one.
	a.spawned++
	pid, err := ctx.SpawnNamed(props, fmt.Sprintf("s-%s-%d", t.Conversation, a.spawned))
	if err != nil {
		a.pool.Free(idx)
		return &messages.Error{Code: messages.CodeInternal, Message: "The session could not start: " + err.Error()}
	}
	route.PID = pid
	a.sessions[t.Conversation] = &entry{pid: pid, profile: idx, route: route, agent: t.AgentID}
	a.convOf[pid.Id] = t.Conversation
	a.cfg.Routes.PutSession(t.Conversation, route)
	return nil
}

// drop forgets a session, stops routing to it, frees its place, and tells
// subscribers it is gone.
func (a *Actor) drop(conv string, e *entry) {
	a.pool.Free(e.profile)
	delete(a.sessions, conv)
	delete(a.convOf, e.pid.Id)
	a.cfg.Routes.DropSession(conv)
	last := e.route.Shown()
	last.State = messages.StateClosing
	a.cfg.Bus.Publish(&messages.SessionChanged{Session: last, Ended: true, At: a.cfg.Now()})
}

// forwardControl passes take over, resume, release and screenshots to the
// session, unchanged; it answers the owner itself.
func (a *Actor) forwardControl(ctx actor.Context, conv string) {
	e := a.sessions[conv]
	if moved := a.movedTo(conv); e == nil && moved != nil {
		ctx.Respond(fail(moved))
		return
	}
	if e == nil {
		ctx.Respond(fail(messages.CodeNoSession.Err(conv)))
		return
	}
	ctx.Forward(e.pid)
}

// terminated lets go of a child that stopped, and cleans up after a
// session that stopped on its own: its supervisor gave up on it after
// repeated crashes. The session is found by its PID in one lookup: a scan
// of every session per stopped child grew with the conversations running.
func (a *Actor) terminated(ctx actor.Context, who *actor.PID) {
	letGo(ctx, who)
	conv, ok := a.convOf[who.Id]
	e := a.sessions[conv]
	if !ok || e == nil || !e.pid.Equal(who) {
		return // dropped already (released, stopped, moved away)
	}
	a.drop(conv, e)
	if t, ok := a.tasks.Get(conv); !a.halting && ok && t.State == ledger.TaskActive {
		ops := a.forget(conv)
		t = tasks.End(t, "The task ended because its session kept failing; the owner can start a new one.", a.cfg.Now())
		a.tasks.Put(t)
		a.cfg.Bus.Publish(tasks.Changed(t, a.cfg.Now()))
		ctx.Send(a.cfg.Ledger, &ledger.Write{Ops: append(ops, ledger.Put(ledger.TaskKey(conv), t))})
	}
}

// letGo clears what the PID of a child that stopped still holds. The
// library keeps that PID in the parent's set of children after the child
// stopped (its Remove shortens the slice and leaves the slot), and a PID
// caches the process it was last sent to: through it the stopped session
// stayed reachable with all it held, until a later child took the slot. A
// PID sent to once its process is dead drops the cache; the stop sent here
// goes to dead letters (logged at debug). It is sent only when no process
// is registered under the PID, so it never reaches another actor.
func letGo(ctx actor.Context, who *actor.PID) {
	if _, alive := ctx.ActorSystem().ProcessRegistry.Get(who); alive {
		return
	}
	ctx.Stop(who)
}

// forget drops per-conversation state that only a live task needs, and
// returns the deletes of its once site answers for the caller's write. The
// owner's answers about apps hold for the conversation and stay.
func (a *Actor) forget(conv string) []ledger.Op {
	delete(a.carries, conv)
	var ops []ledger.Op
	for _, site := range a.sites.Forget(conv) {
		ops = append(ops, ledger.Delete(ledger.ApprovalKey(conv, onceSubject(site))))
	}
	a.apps.EndTask(conv)
	return ops
}

// forgetConversation is forget for a conversation buddi keeps nothing
// more of (its last task pruned, its agent removed): its app answers go too.
func (a *Actor) forgetConversation(conv string) []ledger.Op {
	ops := a.forget(conv)
	for _, app := range a.apps.Forget(conv) {
		ops = append(ops, ledger.Delete(ledger.AppKey(conv, app)))
	}
	return ops
}

// onceSubject is the approval subject of a site answered once.
func onceSubject(site string) string { return "site:" + site }

// AgentSessions is how many of a profile's sessions one agent's own
// requests may hold (auto-approved ones): the rest stay free for the
// owner's tasks and for other agents. The owner may give one agent more.
const AgentSessions = drivers.PerProfile / 2

// heldBy counts the sessions of agent id.
func (a *Actor) heldBy(id string) int {
	n := 0
	for _, e := range a.sessions {
		if e.agent == id {
			n++
		}
	}
	return n
}

// states counts the sessions in each state, as each last showed it.
func (a *Actor) states() map[string]int {
	if len(a.sessions) == 0 {
		return nil
	}
	out := map[string]int{}
	for _, e := range a.sessions {
		out[e.route.Shown().State]++
	}
	return out
}

// tellSessions sends msg to every session (a Stop lifted: each starts
// afresh).
func (a *Actor) tellSessions(ctx actor.Context, msg any) {
	for _, e := range a.sessions {
		ctx.Send(e.pid, msg)
	}
}
