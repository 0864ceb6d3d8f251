package controller

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/messages"
)

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

// clustered reports whether this buddi is a member of a cluster.
func (a *Actor) clustered() bool { return a.cfg.Membership != "" }

// clusterDown is the refusal of new work on a member that does not know
// the shared Stop (etcd unreachable, or not heard from yet), or nil.
func (a *Actor) clusterDown() *messages.Error {
	if !a.clustered() {
		return nil
	}
	if why := a.cfg.Stops.Load().Unreachable(); why != "" {
		return messages.CodeClusterDown.Err(why)
	}
	return nil
}

// refusing reports whether calls must go through the controller's own
// checks rather than straight to a session.
func (a *Actor) refusing() bool { return a.stopped() || a.clusterDown() != nil }

// cluster handles what the cluster's watches tell the controller; false
// for a message it does not know.
func (a *Actor) cluster(ctx actor.Context) bool {
	switch m := ctx.Message().(type) {
	case *messages.ClusterMembers:
		a.cfg.Carry.setMembers(m)
	case *ClusterAgents:
		a.clusterAgents(ctx, m)
	case *ClusterSites:
		a.clusterSites(ctx, m)
	case *Adopt:
		a.adopt(ctx, m)
	default:
		return false
	}
	return true
}
