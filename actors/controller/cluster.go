package controller

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/messages"
)

func (c *Carry) setMembers(m *messages.ClusterMembers) { c.mu.Lock(); c.members = m; c.mu.Unlock() }

func (c *Carry) setLapsed(at time.Time) { c.mu.Lock(); c.lapsed = at; c.mu.Unlock() }

func (c *Carry) setRoutes(addrs []string) { c.mu.Lock(); c.routes = addrs; c.mu.Unlock() }

// routeList is the members placement routes conversations to; empty (not
// nil) before the first.
func (c *Carry) routeList() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string{}, c.routes...)
}

// lapsedSaid is what /healthz says of this member's lapsed entry in the
// member list, or "" when it never lapsed.
func (c *Carry) lapsedSaid() string {
	c.mu.Lock()
	at := c.lapsed
	c.mu.Unlock()
	if at.IsZero() {
		return ""
	}
	return "This member's entry in the cluster's member list lapsed at " + at.UTC().Format(time.RFC3339) +
		" (etcd heard no keep-alive for its whole lease); the members that saw it go route no conversation to it until it restarts: restart it."
}

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
	case *messages.ClusterLapsed:
		a.cfg.Carry.setLapsed(m.At)
	case *messages.ClusterRoutes:
		a.cfg.Carry.setRoutes(m.Addresses)
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
