package cluster_test

import (
	"context"
	"strings"
	"testing"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/grains"
	"github.com/buddi-dev/buddi/messages"
)

func findMember(ms []messages.ClusterMember, id string) (messages.ClusterMember, bool) {
	for _, m := range ms {
		if m.ID == id {
			return m, true
		}
	}
	return messages.ClusterMember{}, false
}

// Each member's /healthz lists every member with its address and capacity
// and marks itself; a session held by one shows as in use in the others'
// lists; a member that shuts down leaves the lists, and comes back under
// the same id when it starts again on the same data directory.
func TestMembersAreListedWithCapacityAndComeBackUnderTheirID(t *testing.T) {
	etcd, a, b, c := three(t)
	all := []*member{a, b, c}
	for _, m := range all {
		for _, cm := range m.health(t).Cluster.Members {
			var want *member
			for _, o := range all {
				if o.id(t) == cm.ID {
					want = o
				}
			}
			switch {
			case want == nil:
				t.Fatalf("%s lists a member %s that is none of the three", m.name, cm.ID)
			case cm.Address != want.addr || cm.Self != (want == m):
				t.Fatalf("%s lists %+v; want address %s, self only for itself", m.name, cm, want.addr)
			case cm.Capacity.Sessions.Total == 0 || cm.Capacity.Sessions.Free != cm.Capacity.Sessions.Total || cm.Capacity.Profiles.Total == 0:
				t.Fatalf("%s lists an idle member's capacity as %+v", m.name, cm.Capacity)
			}
		}
	}

	a.Task(t, "ada", "busy", 10)
	a.Observe(t, a.agent, "busy")
	home := homeOf(t, etcd, "busy", all...)
	for _, m := range all {
		m.healthUntil(t, func(h messages.Health) bool {
			cm, ok := findMember(h.Cluster.Members, home.id(t))
			return ok && cm.Capacity.Sessions.InUse == 1 && cm.Capacity.Sessions.Free == cm.Capacity.Sessions.Total-1 && cm.Capacity.Profiles.InUse == 1
		})
	}

	idA := a.id(t)
	a.stop()
	b.listsExactly(t, b, c)
	a.start(t)
	if id := a.id(t); id != idA {
		t.Fatalf("a restarted on its data directory is %s, was %s", id, idA)
	}
	b.listsExactly(t, a, b, c)
}

// A Stop made while etcd is away is not acknowledged as shared: the owner
// hears etcd has not taken it, and a task asked for meanwhile is refused;
// once etcd is back the Stop lands and holds on the other members too
// (the returning watch does not lift it).
func TestAStopMadeWithoutEtcdLandsWhenEtcdReturns(t *testing.T) {
	etcd, a, b, c := three(t)
	etcd.Stop()
	a.eventually(t, messages.CodeClusterDown)
	if r := a.Tool(t, a.agent, messages.ToolTask, "asked", map[string]any{"description": "a task while etcd is away"}); r.Code() != messages.CodeClusterDown {
		t.Fatalf("a task request while etcd is away answered %q", r.Code())
	}
	r, err := a.Do("POST", "/api/browser/stop", a.Owner, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Code() != messages.CodeStoreFailed || r.Error == nil || !strings.Contains(r.Error.Message, "etcd has not taken it yet") {
		t.Fatalf("a Stop while etcd is away answered %q: %+v", r.Code(), r.Error)
	}
	etcd.Restart()
	for _, m := range []*member{a, b, c} {
		m.eventually(t, messages.CodeStopped)
		m.healthUntil(t, func(h messages.Health) bool {
			return h.Stopped && h.Cluster.Etcd == "reachable" && h.Cluster.Membership == "etcd"
		})
	}
}

// A member whose entry in the member list lapsed (etcd heard no keep-alive
// for its whole lease) writes it again and says so in its health, with
// what to do: the members that saw it go route nothing to it until it
// restarts.
func TestAMemberWhoseEntryLapsedSaysSoInItsHealth(t *testing.T) {
	etcd := etcdtest.Start(t)
	a := startMember(t, etcd, "a", "")
	if h := a.health(t); h.Cluster == nil || h.Cluster.Lapsed != "" {
		t.Fatalf("a member that just started says of its entry: %+v", h.Cluster)
	}
	etcdc := newAttacker(t, etcd).cli
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	entries, err := etcdc.Get(ctx, grains.DefaultPrefix+"/", clientv3.WithPrefix())
	if err != nil {
		t.Fatal(err)
	}
	if len(entries.Kvs) != 1 || entries.Kvs[0].Lease == 0 {
		t.Fatalf("etcd's member list holds %d entries; want the one member's, on a lease", len(entries.Kvs))
	}
	if _, err := etcdc.Revoke(ctx, clientv3.LeaseID(entries.Kvs[0].Lease)); err != nil {
		t.Fatal(err)
	}
	h := a.healthUntil(t, func(h messages.Health) bool { return h.Cluster.Lapsed != "" })
	if !strings.Contains(h.Cluster.Lapsed, "restart it") || !strings.HasSuffix(h.Cluster.Lapsed, ".") {
		t.Fatalf("the member's health says of its lapsed entry %q; want a sentence saying to restart it", h.Cluster.Lapsed)
	}
}
