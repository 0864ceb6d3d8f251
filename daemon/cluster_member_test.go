package daemon_test

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
)

// membersUntil polls a member's /healthz until its member list satisfies
// ok, and returns that list.
func membersUntil(t *testing.T, d *daemontest.Daemon, what string, ok func([]messages.ClusterMember) bool) []messages.ClusterMember {
	t.Helper()
	var last []messages.ClusterMember
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		h := health(t, d)
		if h.Cluster == nil {
			t.Fatal("a member's health has no cluster part")
		}
		if last = h.Cluster.Members; ok(last) {
			return last
		}
	}
	t.Fatalf("the member at %s never listed %s; it lists %+v", d.Addr(), what, last)
	return nil
}

func memberIDOf(t *testing.T, d *daemontest.Daemon) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(d.Dir, daemon.MemberIDFile))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

func findMember(ms []messages.ClusterMember, id string) (messages.ClusterMember, bool) {
	for _, m := range ms {
		if m.ID == id {
			return m, true
		}
	}
	return messages.ClusterMember{}, false
}

// Each member's /healthz lists every member with its address and capacity
// and marks itself; a session opened on one shows in the other's list; a
// member that shuts down leaves the list, and comes back under the same id
// when it starts again on the same data directory.
func TestClusterMembersAreListedWithCapacity(t *testing.T) {
	etcd := etcdtest.Start(t)
	a, ta := clusterMember(t, etcd, "")
	b, _ := clusterMember(t, etcd, "")
	idA, idB := memberIDOf(t, a), memberIDOf(t, b)
	both := func(ms []messages.ClusterMember) bool {
		_, okA := findMember(ms, idA)
		_, okB := findMember(ms, idB)
		return len(ms) == 2 && okA && okB
	}
	for _, d := range []*daemontest.Daemon{a, b} {
		ms := membersUntil(t, d, "both members", both)
		for _, m := range ms {
			want := map[string]string{idA: a.Addr(), idB: b.Addr()}[m.ID]
			if m.Address != want || m.Self != (want == d.Addr()) {
				t.Fatalf("%s lists %+v; want address %s, self only for itself", d.Addr(), m, want)
			}
			if m.Capacity.Sessions.Total == 0 || m.Capacity.Sessions.Free != m.Capacity.Sessions.Total || m.Capacity.Profiles.Total == 0 {
				t.Fatalf("%s lists an idle member's capacity as %+v", d.Addr(), m.Capacity)
			}
		}
	}

	a.Task(t, "ada", "busy", 10)
	a.Observe(t, ta, "busy")
	membersUntil(t, b, "a's session in use", func(ms []messages.ClusterMember) bool {
		m, ok := findMember(ms, idA)
		return ok && m.Capacity.Sessions.InUse == 1 && m.Capacity.Sessions.Free == m.Capacity.Sessions.Total-1 && m.Capacity.Profiles.InUse == 1
	})

	dirA := a.Dir
	a.Stop(t)
	membersUntil(t, b, "b alone once a stopped", func(ms []messages.ClusterMember) bool {
		return len(ms) == 1 && ms[0].ID == idB && ms[0].Self
	})
	o := simOpts(sim.Config{}, nil)
	o.Config.Cluster, o.Config.ClusterEtcd = true, []string{etcd.Endpoint()}
	again := daemontest.Start(t, dirA, o)
	if id := memberIDOf(t, again); id != idA {
		t.Fatalf("a restarted on its data directory is %s, was %s", id, idA)
	}
	membersUntil(t, b, "a back under its id", func(ms []messages.ClusterMember) bool {
		m, ok := findMember(ms, idA)
		return ok && len(ms) == 2 && m.Address == again.Addr()
	})
}

// A member id file that holds no usable id stops the member from starting
// with a sentence that says what to do.
func TestClusterMemberRefusesABadMemberID(t *testing.T) {
	etcd := etcdtest.Start(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, daemon.MemberIDFile), []byte("no/such id\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	o := simOpts(sim.Config{}, nil)
	o.Config.Cluster, o.Config.ClusterEtcd = true, []string{etcd.Endpoint()}
	o.Config.DataDir, o.Config.Addr, o.Config.Driver, o.Config.LogLevel = dir, "127.0.0.1:0", "sim", "warn"
	o.Log = slog.New(slog.DiscardHandler)
	d, err := daemon.Start(o)
	if err == nil {
		t.Cleanup(func() { _ = d.Shutdown(t.Context()) })
		t.Fatal("a member started with a bad member id")
	}
	if !strings.Contains(err.Error(), filepath.Join(dir, daemon.MemberIDFile)) || !strings.Contains(err.Error(), "remove it") {
		t.Fatalf("the refusal does not say which file to fix and how: %v", err)
	}
}
