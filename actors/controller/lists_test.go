package controller_test

import (
	"context"
	"net/url"
	"slices"
	"sync"
	"testing"

	"github.com/buddi-dev/buddi/actors/actortest"
	"github.com/buddi-dev/buddi/actors/controller"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/messages"
)

// revs stands in for etcd at the controller's own seam (SharedAgents,
// SharedSites): each write commits at the next revision, and a write may
// be held until the test lets it through.
type revs struct {
	mu      sync.Mutex
	rev     int64
	gate    chan struct{} // when set, a write says so on entered and waits for a receive from it
	entered chan struct{}
}

func (r *revs) commit() int64 {
	r.mu.Lock()
	gate := r.gate
	r.mu.Unlock()
	if gate != nil {
		r.entered <- struct{}{}
		<-gate
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rev++
	return r.rev
}

func (r *revs) CreateAgent(context.Context, ledger.Agent) (int64, *messages.Error) {
	return r.commit(), nil
}
func (r *revs) DeleteAgent(context.Context, ledger.Agent) (int64, *messages.Error) {
	return r.commit(), nil
}
func (r *revs) PutSite(context.Context, egress.Approval) (int64, *messages.Error) {
	return r.commit(), nil
}
func (r *revs) DeleteSite(context.Context, string) (int64, *messages.Error) { return r.commit(), nil }

func clusterWorld(t *testing.T, r *revs) *world {
	t.Helper()
	return startWith(t, func(c *controller.Config) { c.Agents, c.Sites = r, r })
}

func (w *world) agentNames(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, a := range w.owner(t, &messages.ListAgents{}).(messages.AgentList) {
		out = append(out, a.Name)
	}
	return out
}

// agentRecord is the cluster's record of an agent named name, as another
// member added it.
func agentRecord(name string) ledger.Agent {
	return ledger.Agent{ID: "id-" + name, Name: name, TokenHash: "hash-" + name, Grants: []string{"browser.*"}}
}

// A list of the cluster's agents read before an agent was added here
// reaches the controller after the add's answer: the agent stays, and a
// task starts for it. A list read after the add still counts: an agent
// another member removed then goes.
func TestAnAgentListOlderThanAnAddHereLeavesTheAgent(t *testing.T) {
	r := &revs{rev: 10}
	w := clusterWorld(t, r)
	w.owner(t, &messages.AddAgent{Name: "ada"}) // committed at 11
	w.sys.Root.Send(w.pid, &controller.ClusterAgents{Rev: 10})
	if names := w.agentNames(t); !slices.Equal(names, []string{"ada"}) {
		t.Fatalf("after a list older than the add, the agents are %v, want [ada]", names)
	}
	w.owner(t, &messages.StartTask{Agent: "ada", Conversation: "c1", Description: "look"})

	w.sys.Root.Send(w.pid, &controller.ClusterAgents{Agents: []ledger.Agent{agentRecord("bob")}, Rev: 12})
	if names := w.agentNames(t); !slices.Equal(names, []string{"bob"}) {
		t.Fatalf("after a newer list without ada, the agents are %v, want [bob]", names)
	}
}

// Lists that come while an add is on its way to etcd wait for its answer:
// one read before the add is dropped then, one read after it is applied.
func TestAgentListsThatComeDuringAnAddWaitForIt(t *testing.T) {
	for _, c := range []struct {
		name string
		list *controller.ClusterAgents
		want []string
	}{
		{"read before the add", &controller.ClusterAgents{Rev: 10}, []string{"ada"}},
		{"read after the add", &controller.ClusterAgents{Agents: []ledger.Agent{agentRecord("bob")}, Rev: 12}, []string{"bob"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			gate := make(chan struct{})
			r := &revs{rev: 10, gate: gate, entered: make(chan struct{}, 1)}
			w := clusterWorld(t, r)
			added := w.sys.Root.RequestFuture(w.pid, &messages.AddAgent{Name: "ada"}, actortest.Wait)
			<-r.entered                                               // the add is on its way to etcd
			w.sys.Root.Send(w.pid, &controller.ClusterAgents{Rev: 9}) // held: an add is under way
			w.sys.Root.Send(w.pid, c.list)
			if names := w.agentNames(t); len(names) != 0 {
				t.Fatalf("while the add waits for etcd, the agents are %v, want none", names)
			}
			gate <- struct{}{} // committed at 11
			if _, err := added.Result(); err != nil {
				t.Fatal(err)
			}
			if names := w.agentNames(t); !slices.Equal(names, c.want) {
				t.Fatalf("after the add's answer, the agents are %v, want %v", names, c.want)
			}
		})
	}
}

// A list of answers "always" read before the owner revoked a site here
// does not give the site back; a list read after it does.
func TestASiteListOlderThanARevocationHereLeavesItRevoked(t *testing.T) {
	r := &revs{rev: 20}
	w := clusterWorld(t, r)
	u, _ := url.Parse("https://example.com/p")
	ap := egress.ApprovalOf(u)
	always := func() bool {
		for _, g := range w.owner(t, &messages.ListSites{}).(messages.SiteGrants) {
			if g.Scope == messages.ScopeAlways {
				return true
			}
		}
		return false
	}
	w.sys.Root.Send(w.pid, &controller.ClusterSites{Always: []egress.Approval{ap}, Rev: 20})
	if !always() {
		t.Fatal("the cluster's answer always was not taken")
	}
	w.owner(t, &messages.RevokeSite{Site: ap.Site.String()}) // committed at 21
	w.sys.Root.Send(w.pid, &controller.ClusterSites{Always: []egress.Approval{ap}, Rev: 20})
	if always() {
		t.Fatal("a list older than the revocation gave the site back")
	}
	w.sys.Root.Send(w.pid, &controller.ClusterSites{Always: []egress.Approval{ap}, Rev: 22})
	if !always() {
		t.Fatal("a list newer than the revocation (approved again elsewhere) was not taken")
	}
}
