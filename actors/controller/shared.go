package controller

import (
	"context"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/controller/tasks"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/messages"
)

// SharedAgents is the cluster's list of agents in etcd; nil on a single
// host. Every member learns the list by its watch (ClusterAgents); an
// agent added or removed here is written there first, so no member is
// told of an agent etcd does not hold.
type SharedAgents interface {
	// CreateAgent adds ag unless the cluster already has an agent by
	// that name, and returns once etcd has committed it.
	CreateAgent(ctx context.Context, ag ledger.Agent) *messages.Error
	// DeleteAgent removes ag (by name, only while it is still ag).
	DeleteAgent(ctx context.Context, ag ledger.Agent) *messages.Error
}

// ClusterAgents is the cluster's whole list of agents, as this member's
// watch of etcd read it. The controller makes its own list the same:
// agents it lacks are added, agents etcd no longer has are removed (their
// tokens refused at once, their sessions here ended).
type ClusterAgents struct{ Agents []ledger.Agent }

// Adopt asks the controller to run a conversation's task that another
// member ran until it was lost: the task and the steps it has used as etcd
// holds them (the count goes on from there); the page and the refs start
// afresh here. The answer is a *messages.OwnerReply.
type Adopt struct {
	Task      ledger.Task
	StepsUsed int
}

// sharedWait bounds the owner's wait for etcd to commit a change.
const sharedWait = 10 * time.Second

// sharedCall runs f off the mailbox, bounded by sharedWait, and then cont
// with its answer in the mailbox.
func (a *Actor) sharedCall(ctx actor.Context, f func(context.Context) *messages.Error, cont func(*messages.Error)) {
	sys := ctx.ActorSystem()
	fut := actor.NewFuture(sys, sharedWait+time.Second)
	to := fut.PID()
	go func() {
		c, cancel := context.WithTimeout(context.Background(), sharedWait)
		defer cancel()
		sys.Root.Send(to, &sharedAnswer{f(c)})
	}()
	ctx.ReenterAfter(fut, func(res any, err error) {
		if r, ok := res.(*sharedAnswer); ok && err == nil {
			cont(r.e)
			return
		}
		cont(messages.CodeClusterDown.Err("etcd did not answer in time"))
	})
}

// sharedAnswer carries a sharedCall's answer back to the mailbox.
type sharedAnswer struct{ e *messages.Error }

// clusterAgents makes this member's agents the cluster's.
func (a *Actor) clusterAgents(ctx actor.Context, m *ClusterAgents) {
	var ops []ledger.Op
	for _, ag := range m.Agents {
		if have, ok := a.agents.Get(ag.Name); ok && have.ID == ag.ID && have.TokenHash == ag.TokenHash {
			continue
		}
		if have, ok := a.agents.Get(ag.Name); ok {
			a.dropAgent(ctx, have, "its agent was replaced on another member") // the same name, another agent
		}
		a.agents.Put(ag)
		a.cfg.Routes.PutAgent(ag.TokenHash, route(ag))
		ops = append(ops, ledger.Put(ledger.AgentKey(ag.Name), ag))
		a.cfg.Log.Info("agent added on another member", "agent", ag.Name)
	}
	for _, have := range a.agents.All() {
		if !slices.ContainsFunc(m.Agents, func(ag ledger.Agent) bool { return ag.ID == have.ID }) {
			a.agents.Remove(have.Name)
			ops = append(ops, ledger.Delete(ledger.AgentKey(have.Name)))
			a.dropAgent(ctx, have, "its agent was removed")
			a.cfg.Log.Info("agent removed on another member", "agent", have.Name)
		}
	}
	if len(ops) > 0 {
		ctx.Send(a.cfg.Ledger, &ledger.Write{Owner: true, Ops: ops})
	}
}

// dropAgent refuses ag's token and ends its sessions and waiting requests
// here, without waiting for them.
func (a *Actor) dropAgent(ctx actor.Context, ag ledger.Agent, why string) {
	a.cfg.Routes.RemoveAgent(ag.TokenHash)
	a.cfg.Limits.Forget(ag.ID)
	var ops []ledger.Op
	for _, t := range a.tasks.Of(ag.ID) {
		if e := a.sessions[t.Conversation]; e != nil {
			ctx.Send(e.pid, &messages.Release{Conversation: t.Conversation, Why: why})
			continue
		}
		t = tasks.End(t, "The task ended: "+why+".", a.cfg.Now())
		a.tasks.Put(t)
		ops = append(ops, a.forgetConversation(t.Conversation)...)
		ops = append(ops, ledger.Put(ledger.TaskKey(t.Conversation), t))
		a.cfg.Bus.Publish(tasks.Changed(t, a.cfg.Now()))
	}
	if len(ops) > 0 {
		ctx.Send(a.cfg.Ledger, &ledger.Write{Owner: true, Ops: ops})
	}
}

// adopt runs a task another member held: durable here first, with the
// steps it had used, then its session.
func (a *Actor) adopt(ctx actor.Context, m *Adopt) {
	t := m.Task
	switch {
	case a.sessions[t.Conversation] != nil:
		ctx.Respond(&messages.OwnerReply{Result: viewPtr(a.tasksOf(t.Conversation))})
		return
	case t.State != ledger.TaskActive || !a.cfg.Now().Before(t.Expires):
		ctx.Respond(fail(messages.Errorf(messages.CodeNoTask, "The task of conversation %s is no longer running; ask the owner for a new one.", t.Conversation)))
		return
	}
	if _, ok := a.agents.Get(t.Agent); !ok {
		ctx.Respond(fail(messages.Errorf(messages.CodeUnknownAgent, "The agent of conversation %s is not known on this member yet; try again in a moment.", t.Conversation)))
		return
	}
	sender := ctx.Sender()
	a.tasks.Put(t)
	w := &ledger.Write{Owner: true, Ops: []ledger.Op{ledger.Put(ledger.TaskKey(t.Conversation), t),
		ledger.Delete(ledger.SessionKey(t.Conversation)), ledger.Put(ledger.StepsKey(t.Conversation), ledger.Steps{Used: m.StepsUsed})}}
	a.write(ctx, w, sender, func(err error) {
		if err != nil {
			reply(ctx, sender, storeFailed("The task", err))
			return
		}
		if e := a.spawn(ctx, t); e != nil {
			reply(ctx, sender, fail(e))
			return
		}
		a.cfg.Log.Info("a task moved here from a member that was lost", "conversation", t.Conversation)
		a.cfg.Bus.Publish(tasks.Changed(t, a.cfg.Now()))
		reply(ctx, sender, &messages.OwnerReply{Result: viewPtr(t)})
	})
}

// tasksOf is the conversation's task as the book holds it.
func (a *Actor) tasksOf(conv string) ledger.Task {
	t, _ := a.tasks.Get(conv)
	return t
}

// SharedSites is the cluster's answers "always" to sites, in etcd; nil on
// a single host. Every member learns them by its watch (ClusterSites).
type SharedSites interface {
	// PutSite adds an answer "always"; returns once etcd has committed it.
	PutSite(ctx context.Context, ap egress.Approval) *messages.Error
	// DeleteSite removes every answer "always" about site.
	DeleteSite(ctx context.Context, site string) *messages.Error
}

// ClusterSites is the cluster's whole list of answers "always", as this
// member's watch of etcd read it; the controller makes its own the same.
type ClusterSites struct{ Always []egress.Approval }

// clusterSites makes this member's answers "always" the cluster's, in the
// gate and in the ledger.
func (a *Actor) clusterSites(ctx actor.Context, m *ClusterSites) {
	had := a.sites.Always()
	var ops []ledger.Op
	for _, ap := range had {
		if !slices.Contains(m.Always, ap) {
			ops = append(ops, ledger.Delete(ledger.SiteKey(project, ap.Site.String())))
		}
	}
	for _, ap := range m.Always {
		if !slices.Contains(had, ap) {
			ops = append(ops, ledger.Put(ledger.SiteKey(project, ap.Site.String()), ap))
		}
	}
	a.sites.SetAlways(m.Always)
	if len(ops) > 0 {
		a.cfg.Log.Info("the owner's site answers changed on another member", "always", len(m.Always))
		ctx.Send(a.cfg.Ledger, &ledger.Write{Owner: true, Ops: ops})
	}
}
