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
	// that name, and returns, with the revision, once etcd has committed
	// it.
	CreateAgent(ctx context.Context, ag ledger.Agent) (int64, *messages.Error)
	// DeleteAgent removes ag (by name, only while it is still ag), and
	// returns the revision etcd committed (0: there was nothing to remove).
	DeleteAgent(ctx context.Context, ag ledger.Agent) (int64, *messages.Error)
}

// ClusterAgents is the cluster's whole list of agents, as this member's
// watch of etcd read it at revision Rev. The controller makes its own list
// the same: agents it lacks are added, agents etcd no longer has are
// removed (their tokens refused at once, their sessions here ended).
type ClusterAgents struct {
	Agents []ledger.Agent
	Rev    int64
}

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

// sharedCall runs f, a write to etcd, off the mailbox, bounded by
// sharedWait, and then cont with its answer in the mailbox. From the write
// until cont calls done (once the change is made here too), lists g's
// watch delivers are set aside (listGuard).
func sharedCall[L any](ctx actor.Context, g *listGuard[L], apply func(actor.Context, *L),
	f func(context.Context) (int64, *messages.Error), cont func(e *messages.Error, done func())) {
	sys := ctx.ActorSystem()
	fut := actor.NewFuture(sys, sharedWait+time.Second)
	to := fut.PID()
	g.writing++
	go func() {
		c, cancel := context.WithTimeout(context.Background(), sharedWait)
		defer cancel()
		rev, e := f(c)
		sys.Root.Send(to, &sharedAnswer{rev, e})
	}()
	ctx.ReenterAfter(fut, func(res any, err error) {
		r, ok := res.(*sharedAnswer)
		if !ok || err != nil {
			r = &sharedAnswer{e: messages.CodeClusterDown.Err("etcd did not answer in time")}
		}
		cont(r.e, func() {
			if held := g.wrote(r.rev); held != nil {
				apply(ctx, held)
			}
		})
	})
}

// sharedAnswer carries a sharedCall's answer back to the mailbox.
type sharedAnswer struct {
	rev int64
	e   *messages.Error
}

// listGuard keeps a member's copy of a list in etcd (agents, answers
// "always") from going back in time. A list the watch read before a write
// of this member's can reach the controller after the write's answer, and
// applying it would undo the write here until the next list: an agent
// just added refused as unknown (its sessions ended), an answer just
// revoked allowed again. So a list older than this member's latest write
// is dropped (the watch sees the write and brings a newer one), and one
// that comes while a write is under way is held until the write's answer.
type listGuard[L any] struct {
	writing int   // writes to etcd under way
	written int64 // the revision of this member's latest committed write
	held    *L    // the newest list that came while writing
	heldRev int64
}

// admit says whether a list read at rev may be applied now; a list that
// may not is held or dropped.
func (g *listGuard[L]) admit(l *L, rev int64) bool {
	switch {
	case rev < g.written:
		return false
	case g.writing > 0:
		if g.held == nil || rev >= g.heldRev {
			g.held, g.heldRev = l, rev
		}
		return false
	}
	return true
}

// wrote ends a write that etcd committed at rev (0: none committed), and
// answers the list held meanwhile when it is now to be applied.
func (g *listGuard[L]) wrote(rev int64) *L {
	g.writing--
	g.written = max(g.written, rev)
	if g.writing > 0 || g.held == nil {
		return nil
	}
	l, at := g.held, g.heldRev
	g.held = nil
	if at < g.written {
		return nil
	}
	return l
}

// clusterAgents makes this member's agents the cluster's.
func (a *Actor) clusterAgents(ctx actor.Context, m *ClusterAgents) {
	if !a.agentLists.admit(m, m.Rev) {
		return
	}
	a.applyAgents(ctx, m)
}

// applyAgents makes this member's agents those of m.
func (a *Actor) applyAgents(ctx actor.Context, m *ClusterAgents) {
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
	// PutSite adds an answer "always"; returns, with the revision, once
	// etcd has committed it.
	PutSite(ctx context.Context, ap egress.Approval) (int64, *messages.Error)
	// DeleteSite removes every answer "always" about site, and returns
	// the revision of the last removal (0: none).
	DeleteSite(ctx context.Context, site string) (int64, *messages.Error)
}

// ClusterSites is the cluster's whole list of answers "always", as this
// member's watch of etcd read it at revision Rev; the controller makes its
// own the same.
type ClusterSites struct {
	Always []egress.Approval
	Rev    int64
}

// clusterSites makes this member's answers "always" the cluster's, in the
// gate and in the ledger.
func (a *Actor) clusterSites(ctx actor.Context, m *ClusterSites) {
	if !a.siteLists.admit(m, m.Rev) {
		return
	}
	a.applySites(ctx, m)
}

// applySites makes this member's answers "always" those of m.
func (a *Actor) applySites(ctx actor.Context, m *ClusterSites) {
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
