package member

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/buddi-dev/buddi/actors/controller"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/cluster/shared"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// SharedAgents is the controller's view of the cluster's agents: nil (an
// interface holding nothing) on one host.
func (mem *Self) SharedAgents() controller.SharedAgents {
	if mem == nil {
		return nil
	}
	return agentsInEtcd{mem.shared}
}

// agentsInEtcd keeps the owner's agents under <prefix>/agents/<name>: the
// record with its token's hash, never the token.
type agentsInEtcd struct{ s *shared.Store }

func (a agentsInEtcd) CreateAgent(ctx context.Context, ag ledger.Agent) (int64, *messages.Error) {
	v, err := json.Marshal(ag)
	if err != nil {
		return 0, messages.Errorf(messages.CodeInternal, "The agent could not be encoded: %v", err)
	}
	rev, err := a.s.Create(ctx, shared.Agents, ag.Name, v)
	switch {
	case errors.Is(err, shared.ErrExists):
		return 0, messages.Errorf(messages.CodeAgentExists, "Agent %s already exists in the cluster (added through another member); remove it first (`buddi agent remove %s`) to issue a new token.", ag.Name, ag.Name)
	case err != nil:
		return 0, messages.CodeClusterDown.Err(err.Error())
	}
	return rev, nil
}

func (a agentsInEtcd) DeleteAgent(ctx context.Context, ag ledger.Agent) (int64, *messages.Error) {
	rec, ok, err := a.s.Get(ctx, shared.Agents, ag.Name)
	if err != nil {
		return 0, messages.CodeClusterDown.Err(err.Error())
	}
	if !ok {
		return 0, nil
	}
	var have ledger.Agent
	if json.Unmarshal(rec.Value, &have) == nil && have.ID != ag.ID {
		return 0, nil // the name is another agent's now; this one is gone already
	}
	rev, err := a.s.Delete(ctx, shared.Agents, ag.Name)
	if err != nil {
		return 0, messages.CodeClusterDown.Err(err.Error())
	}
	return rev, nil
}

// watchAgents feeds the controller the cluster's agents; the first list is
// delivered before it returns, so the member knows every agent before it
// serves anyone.
func (mem *Self) watchAgents(ctx context.Context) error {
	return mem.shared.WatchList(ctx, shared.Agents, func(rs []shared.Record, rev int64) {
		m := &controller.ClusterAgents{Agents: make([]ledger.Agent, 0, len(rs)), Rev: rev}
		for _, r := range rs {
			var ag ledger.Agent
			if err := json.Unmarshal(r.Value, &ag); err != nil || ag.Name != r.Name || ag.ID == "" || ag.TokenHash == "" {
				mem.log.Warn("the cluster's record of an agent does not decode; it is not accepted here", "agent", r.Name)
				continue
			}
			m.Agents = append(m.Agents, ag)
		}
		mem.parts.Root.Send(mem.parts.Controller, m)
	})
}

// taskRetry is the pause before writing again a task etcd did not take.
const taskRetry = time.Second

// mirrorTasks writes every task this member changes to etcd, under
// <prefix>/tasks/<conversation>, so the member that takes a conversation
// over after this one is lost knows its task and budget. Only the member
// etcd names as holding the conversation writes it (shared.PutAsHome). A
// write etcd does not take is tried again until a newer state replaces it.
func (mem *Self) mirrorTasks(ctx context.Context) (stop func()) {
	sub := mem.parts.Gateway.Subscribe(events.Filter{Kinds: messages.KindTask})
	var wg sync.WaitGroup
	wg.Go(func() {
		defer sub.Close()
		pending := map[string]ledger.Task{}
		for ctx.Err() == nil {
			mem.nextTasks(ctx, sub, pending)
			for conv, t := range pending {
				if mem.putTask(ctx, t) == nil {
					delete(pending, conv)
				}
			}
		}
	})
	return wg.Wait
}

// nextTasks waits up to taskRetry for task events and adds the tasks they
// show to pending, the newest per conversation.
func (mem *Self) nextTasks(ctx context.Context, sub *events.Subscription, pending map[string]ledger.Task) {
	c, cancel := context.WithTimeout(ctx, taskRetry)
	ev, err := sub.Next(c)
	cancel()
	if err != nil {
		return
	}
	for _, e := range append([]messages.Event{ev}, sub.Drain()...) {
		if tc, ok := e.(*messages.TaskChanged); ok {
			pending[tc.Task.Conversation] = mem.taskOf(tc.Task)
		}
	}
}

// taskOf is the task an event shows, with the agent's id from the ledger.
func (mem *Self) taskOf(v messages.TaskView) ledger.Task {
	t := ledger.Task{Conversation: v.Conversation, Agent: v.Agent, Description: v.Description, State: v.State,
		MaxSteps: v.MaxSteps, Lifetime: v.Lifetime, Created: v.Created, Started: v.Started, Expires: v.Expires,
		EndReason: v.EndReason}
	if stored, ok, err := mem.parts.Store.Task(v.Conversation); err == nil && ok && stored.Agent == v.Agent {
		t.AgentID = stored.AgentID
	}
	return t
}

func (mem *Self) putTask(ctx context.Context, t ledger.Task) error {
	v, err := json.Marshal(t)
	if err != nil {
		return nil // cannot happen for this struct; nothing to retry
	}
	c, cancel := context.WithTimeout(ctx, clusterOpenWait)
	defer cancel()
	_, err = mem.shared.PutAsHome(c, shared.Tasks, t.Conversation, mem.memberID, v)
	if errors.Is(err, shared.ErrNotHome) {
		return nil // another member holds it now: its writes are the ones that count
	}
	return err
}

// SharedSites is the controller's view of the cluster's answers "always":
// nil (an interface holding nothing) on one host.
func (mem *Self) SharedSites() controller.SharedSites {
	if mem == nil {
		return nil
	}
	return sitesInEtcd{mem.shared}
}

// sitesInEtcd keeps the owner's answers "always" under
// <prefix>/sites/<hash of the answer>.
type sitesInEtcd struct{ s *shared.Store }

func siteName(v []byte) string {
	sum := sha256.Sum256(v)
	return hex.EncodeToString(sum[:16])
}

func (s sitesInEtcd) PutSite(ctx context.Context, ap egress.Approval) (int64, *messages.Error) {
	v, err := json.Marshal(ap)
	if err != nil {
		return 0, messages.Errorf(messages.CodeInternal, "The answer could not be encoded: %v", err)
	}
	rev, err := s.s.Put(ctx, shared.Sites, siteName(v), v)
	if err != nil {
		return 0, messages.CodeClusterDown.Err(err.Error())
	}
	return rev, nil
}

func (s sitesInEtcd) DeleteSite(ctx context.Context, site string) (int64, *messages.Error) {
	rs, _, err := s.s.List(ctx, shared.Sites)
	if err != nil {
		return 0, messages.CodeClusterDown.Err(err.Error())
	}
	var last int64
	for _, r := range rs {
		var ap egress.Approval
		if json.Unmarshal(r.Value, &ap) == nil && ap.Site.String() != site {
			continue // another site's; an answer that does not decode goes too
		}
		rev, err := s.s.Delete(ctx, shared.Sites, r.Name)
		if err != nil {
			return 0, messages.CodeClusterDown.Err(err.Error())
		}
		last = max(last, rev)
	}
	return last, nil
}

// watchSites feeds the controller the cluster's answers "always"; the
// first list is delivered before it returns.
func (mem *Self) watchSites(ctx context.Context) error {
	return mem.shared.WatchList(ctx, shared.Sites, func(rs []shared.Record, rev int64) {
		m := &controller.ClusterSites{Always: make([]egress.Approval, 0, len(rs)), Rev: rev}
		for _, r := range rs {
			var ap egress.Approval
			if err := json.Unmarshal(r.Value, &ap); err != nil || ap.Site.String() == "" {
				mem.log.Warn("the cluster's record of a site answer does not decode; it is not used here", "record", r.Name)
				continue
			}
			m.Always = append(m.Always, ap)
		}
		mem.parts.Root.Send(mem.parts.Controller, m)
	})
}
