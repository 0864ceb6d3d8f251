package controller

import (
	"context"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/controller/registry"
	"github.com/buddi-dev/buddi/actors/controller/tasks"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// addAgent registers an agent with the browser.* grant once the ledger has
// it (and, in a cluster, etcd first), and answers its token, which is
// never stored in plain form.
func (a *Actor) addAgent(ctx actor.Context, m *messages.AddAgent) {
	ag, token, e := a.agents.New(m, a.cfg.Now())
	if e != nil {
		ctx.Respond(fail(e))
		return
	}
	sender := ctx.Sender()
	if shared := a.cfg.Agents; shared != nil {
		create := func(c context.Context) (int64, *messages.Error) { return shared.CreateAgent(c, ag) }
		sharedCall(ctx, &a.agentLists, a.applyAgents, create, func(e *messages.Error, done func()) {
			if e != nil {
				done()
				reply(ctx, sender, fail(e))
				return
			}
			a.storeAgent(ctx, ag, token, sender, done)
		})
		return
	}
	a.storeAgent(ctx, ag, token, sender, func() {})
}

// storeAgent makes ag durable here, then known, and calls done.
func (a *Actor) storeAgent(ctx actor.Context, ag ledger.Agent, token string, sender *actor.PID, done func()) {
	w := &ledger.Write{Owner: true, Ops: []ledger.Op{ledger.Put(ledger.AgentKey(ag.Name), ag)}}
	a.write(ctx, w, sender, func(err error) {
		defer done()
		if err != nil {
			reply(ctx, sender, storeFailed("The agent", err))
			return
		}
		a.agents.Put(ag)
		a.cfg.Routes.PutAgent(ag.TokenHash, route(ag))
		reply(ctx, sender, &messages.OwnerReply{Result: registry.Added(ag, token)})
	})
}

// removeAgent revokes the agent's token at once, ends its sessions (tabs
// closed, the action in flight abandoned) and its waiting requests, and
// answers once the removal and every end are durable. Its tasks stay tied
// to its ID, which no agent added later has, even under the same name.
func (a *Actor) removeAgent(ctx actor.Context, m *messages.RemoveAgent) {
	ag, ok := a.agents.Get(m.Name)
	shared := a.cfg.Agents
	if !ok || shared == nil || m.Name == messages.OwnerAgent {
		a.removeAgentHere(ctx, m, ctx.Sender())
		return
	}
	sender := ctx.Sender()
	del := func(c context.Context) (int64, *messages.Error) { return shared.DeleteAgent(c, ag) }
	sharedCall(ctx, &a.agentLists, a.applyAgents, del, func(e *messages.Error, done func()) {
		defer done() // the agent leaves this member in this call, if at all
		if e != nil {
			reply(ctx, sender, fail(e))
			return
		}
		if _, ok := a.agents.Get(m.Name); !ok { // the watch removed it meanwhile
			reply(ctx, sender, &messages.OwnerReply{Result: &messages.AgentRemoved{Removed: m.Name}})
			return
		}
		a.removeAgentHere(ctx, m, sender)
	})
}

// removeAgentHere is removeAgent on this member.
func (a *Actor) removeAgentHere(ctx actor.Context, m *messages.RemoveAgent, sender *actor.PID) {
	ag, e := a.agents.Remove(m.Name)
	if e != nil {
		reply(ctx, sender, fail(e))
		return
	}
	a.cfg.Routes.RemoveAgent(ag.TokenHash)
	a.cfg.Limits.Forget(ag.ID)
	const why = "its agent was removed"
	ops := []ledger.Op{ledger.Delete(ledger.AgentKey(m.Name))}
	var ending []*actor.Future
	for _, t := range a.tasks.Of(ag.ID) {
		if e := a.sessions[t.Conversation]; e != nil {
			ending = append(ending, ctx.RequestFuture(e.pid, &messages.Release{Conversation: t.Conversation, Why: why}, releaseWait))
			continue
		}
		t = tasks.End(t, "The task ended: "+why+".", a.cfg.Now())
		a.tasks.Put(t)
		ops = append(ops, a.forgetConversation(t.Conversation)...)
		a.cfg.Bus.Publish(tasks.Changed(t, a.cfg.Now()))
		ops = append(ops, ledger.Put(ledger.TaskKey(t.Conversation), t))
	}
	a.cfg.Log.Info("agent removed", "agent", m.Name, "sessions", len(ending))
	a.write(ctx, &ledger.Write{Owner: true, Ops: ops}, sender, func(err error) {
		if err != nil {
			reply(ctx, sender, storeFailed("The removal", err))
			return
		}
		a.afterAll(ctx, ending, func() {
			c, cancel := contextFor(closeWait)
			defer cancel()
			a.pool.Drop(c, ag.ID)
			reply(ctx, sender, &messages.OwnerReply{Result: &messages.AgentRemoved{Removed: m.Name, Sessions: len(ending)}})
		})
	})
}

// releaseWait bounds how long a removal waits for a session to end.
const releaseWait = 20 * time.Second

// afterAll runs cont in the mailbox once every future is done (answered
// or timed out).
func (a *Actor) afterAll(ctx actor.Context, fs []*actor.Future, cont func()) {
	if len(fs) == 0 {
		cont()
		return
	}
	ctx.ReenterAfter(fs[0], func(any, error) { a.afterAll(ctx, fs[1:], cont) })
}
