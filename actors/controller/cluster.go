package controller

import (
	"context"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// SharedStop is the Stop flag every member of a cluster shares, kept in
// etcd (cluster/shared.Store); nil on a single host.
type SharedStop interface {
	// SetStop returns once etcd has committed the flag.
	SetStop(ctx context.Context, stopped bool, at time.Time) (int64, error)
}

// sharedWait bounds the owner's wait for etcd to commit a Stop or resume;
// past it the write goes on in the background and the owner is told so.
const sharedWait = 10 * time.Second

// sharedRetry is the pause between two tries of a write etcd did not take.
const sharedRetry = time.Second

// clusterView is what the controller knows of the cluster's etcd. It rides
// on the Carry, so a restarted controller keeps refusing until etcd
// answers again.
type clusterView struct {
	heard bool   // an event of the watch arrived
	down  string // why etcd is not reachable; "" when it is
}

func (c *Carry) setCluster(v clusterView) { c.mu.Lock(); c.cluster = v; c.mu.Unlock() }

func (c *Carry) lastCluster() clusterView {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cluster
}

func (c *Carry) setMembers(m *messages.ClusterMembers) { c.mu.Lock(); c.members = m; c.mu.Unlock() }

// memberList is the members as the watch last listed them, this one
// marked; empty (not nil) before the first list.
func (c *Carry) memberList() []messages.ClusterMember {
	c.mu.Lock()
	m := c.members
	c.mu.Unlock()
	if m == nil {
		return []messages.ClusterMember{}
	}
	out := make([]messages.ClusterMember, len(m.Members))
	for i, cm := range m.Members {
		cm.Self = cm.ID == m.Self
		out[i] = cm
	}
	return out
}

// clusterDown is the refusal of new work on a member that does not know
// the shared Stop (etcd unreachable, or not heard from yet), or nil.
func (a *Actor) clusterDown() *messages.Error {
	if a.cfg.Shared == nil {
		return nil
	}
	v := a.cfg.Carry.lastCluster()
	switch {
	case !v.heard:
		return messages.CodeClusterDown.Err("it has not heard from etcd yet")
	case v.down != "":
		return messages.CodeClusterDown.Err(v.down)
	}
	return nil
}

// refusing reports whether calls must go through the controller's own
// checks rather than straight to a session.
func (a *Actor) refusing() bool { return a.stop.Stopped || a.clusterDown() != nil }

// cluster handles what the cluster's etcd tells the controller; false for
// a message it does not know.
func (a *Actor) cluster(ctx actor.Context) bool {
	switch m := ctx.Message().(type) {
	case *messages.ClusterStop:
		a.clusterStop(ctx, m)
	case *messages.ClusterMembers:
		a.cfg.Carry.setMembers(m)
	case *ClusterAgents:
		a.clusterAgents(ctx, m)
	case *ClusterSites:
		a.clusterSites(ctx, m)
	case *Adopt:
		a.adopt(ctx, m)
	case *stopShared:
		a.stopSharedAnswer(ctx, m)
	case *sharedStillWanted:
		ctx.Respond(!a.dead && a.stops.sharedPending == m.gen)
	default:
		return false
	}
	return true
}

// clusterStop follows the member's watch of the shared Stop: etcd lost or
// back, and a Stop or resume another member (or this one) committed. A
// change the owner made here and etcd has not taken yet wins over what
// the watch says, so a Stop is never lifted by a stale flag.
func (a *Actor) clusterStop(ctx actor.Context, m *messages.ClusterStop) {
	v := clusterView{heard: true}
	if !m.Reachable {
		v.down = m.Why
		if v.down == "" {
			v.down = "it does not answer"
		}
	}
	was := a.cfg.Carry.lastCluster()
	a.cfg.Carry.setCluster(v)
	if v.down != "" && was.down == "" {
		a.cfg.Log.Warn("etcd cannot be reached: this member refuses new work until it can", "why", v.down)
	}
	if v.down == "" && was.down != "" {
		a.cfg.Log.Info("etcd answers again")
	}
	if m.Reachable && a.stops.sharedPending == 0 && m.Stopped != a.stop.Stopped {
		a.cfg.Log.Info("the cluster's Stop changed on another member", "stopped", m.Stopped)
		if m.Stopped {
			a.stopAllAs(ctx, true)
		} else {
			a.resumeAllAs(ctx, true)
		}
	}
	a.cfg.Routes.SetStopped(a.refusing())
}

// reshare writes again, after a restart, the decision the previous
// instance had not got into etcd: until it lands the cluster's watch does
// not overrule it, so a Stop is never lifted by the flag it was to replace.
func (a *Actor) reshare(ctx actor.Context) {
	a.stops.gen = a.cfg.Carry.lastGen()
	if a.cfg.Shared == nil || a.cfg.Carry.dueGen() == 0 {
		return
	}
	a.cfg.Log.Info("writing again to etcd the Stop or resume it had not taken before this restart", "stopped", a.stop.Stopped)
	a.persistShared(ctx, a.cfg.Carry.nextGen(), a.stop)
}

// persistShared writes the Stop or resume to etcd, retried until it lands
// or a later decision replaces it. The first try's outcome (or its running
// past sharedWait) comes back to the mailbox as stopShared for the owner's
// answer; the landing, when later, as stopShared too. Writes take turns
// (the Carry's writing lock) and each asks first whether it is still the
// latest decision, so an older write never lands after a newer one.
func (a *Actor) persistShared(ctx actor.Context, gen int, stop ledger.Stop) {
	self, sys, shared, turn := ctx.Self(), ctx.ActorSystem(), a.cfg.Shared, &a.cfg.Carry.writing
	a.stops.sharedPending = gen
	a.cfg.Carry.setDue(gen)
	wanted := func() bool {
		r, _ := sys.Root.RequestFuture(self, &sharedStillWanted{gen: gen}, sharedWait).Result()
		return r == true
	}
	try := func() (err error, stale bool) {
		turn.Lock()
		defer turn.Unlock()
		if !wanted() {
			return nil, true // a later decision replaced this one, or the controller is gone
		}
		c, cancel := context.WithTimeout(context.Background(), sharedWait)
		defer cancel()
		_, err = shared.SetStop(c, stop.Stopped, stop.At)
		return err, false
	}
	go func() {
		answered := false
		start := time.Now()
		for {
			err, stale := try()
			switch {
			case stale:
				return
			case err == nil:
				sys.Root.Send(self, &stopShared{gen: gen, landed: true})
				return
			case !answered && time.Since(start) >= sharedWait:
				answered = true
				sys.Root.Send(self, &stopShared{gen: gen, err: err})
			}
			time.Sleep(sharedRetry)
		}
	}()
}

// stopShared is etcd's answer to a Stop or resume, in the mailbox.
type stopShared struct {
	gen    int
	landed bool
	err    error
}

// sharedStillWanted asks whether write gen is still the latest decision.
type sharedStillWanted struct{ gen int }

func (a *Actor) stopSharedAnswer(ctx actor.Context, m *stopShared) {
	if m.landed && a.stops.sharedPending == m.gen {
		a.stops.sharedPending = 0
	}
	if m.landed {
		a.cfg.Carry.landed(m.gen)
	}
	w := a.stops.waiting[m.gen]
	if w == nil || w.shared {
		return
	}
	w.shared = true
	if m.err != nil {
		w.sharedErr = fmt.Errorf("the cluster's etcd has not taken it yet (%w); buddi keeps trying, and this member holds it meanwhile", m.err)
		a.cfg.Log.Error("the cluster's etcd did not take the Stop or resume yet; retrying", "err", m.err)
	}
	a.settle(ctx, m.gen)
}
