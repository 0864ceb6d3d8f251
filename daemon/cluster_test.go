package daemon_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
)

// clusterMember starts a buddi with --cluster on etcd, and an agent on it.
func clusterMember(t *testing.T, etcd *etcdtest.Server, dir string) (*daemontest.Daemon, string) {
	t.Helper()
	o := simOpts(sim.Config{}, nil)
	o.Config.Cluster, o.Config.ClusterEtcd = true, []string{etcd.Endpoint()}
	d := daemontest.Start(t, dir, o)
	return d, d.AddAgent(t, "ada", false)
}

// eventually polls what a member answers an agent's act until it is want
// (no_task: the member takes work; stopped; cluster_unreachable).
func eventually(t *testing.T, d *daemontest.Daemon, token string, want messages.Code) {
	t.Helper()
	var got messages.Code
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if got = d.Act(t, token, "probe", map[string]any{"action": "observe"}).Code(); got == want {
			return
		}
	}
	t.Fatalf("the member at %s answers %q, want %q", d.Addr(), got, want)
}

// health is the owner's /healthz of a member.
func health(t *testing.T, d *daemontest.Daemon) messages.Health {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, "http://"+d.Addr()+"/healthz", nil)
	req.Header.Set("Authorization", "Bearer "+d.Owner)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var h messages.Health
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil {
		t.Fatal(err)
	}
	return h
}

// The owner's Stop through one member holds on the others, a member that
// joins late learns it before it takes work, a member that loses etcd
// refuses new work until etcd is back, and resume-all through any member
// lifts the Stop everywhere.
func TestClusterStopHoldsOnEveryMemberAndAMemberWithoutEtcdRefuses(t *testing.T) {
	etcd := etcdtest.Start(t)
	a, ta := clusterMember(t, etcd, "")
	b, tb := clusterMember(t, etcd, "")
	eventually(t, a, ta, messages.CodeNoTask)
	eventually(t, b, tb, messages.CodeNoTask)

	a.Must(t, "POST", "/api/browser/stop", nil)
	eventually(t, b, tb, messages.CodeStopped)
	late, tl := clusterMember(t, etcd, "")
	if code := late.Act(t, tl, "probe", map[string]any{"action": "observe"}).Code(); code != messages.CodeStopped {
		t.Fatalf("a member that joined after the Stop answers %q at once", code)
	}

	b.Must(t, "POST", "/api/browser/resume", messages.OwnerBody{All: true})
	eventually(t, a, ta, messages.CodeNoTask)
	eventually(t, late, tl, messages.CodeNoTask)

	etcd.Stop()
	eventually(t, a, ta, messages.CodeClusterDown)
	if h := health(t, a); h.Cluster == nil || h.Cluster.Etcd != "unreachable" || h.Cluster.Problem == "" {
		t.Fatalf("health while etcd is away: %+v", h.Cluster)
	}
	r := a.Tool(t, ta, messages.ToolTask, "asked", map[string]any{"description": "a task while etcd is away"})
	if r.Code() != messages.CodeClusterDown {
		t.Fatalf("a task request while etcd is away answered %q", r.Code())
	}
	etcd.Restart()
	eventually(t, a, ta, messages.CodeNoTask)
	eventually(t, b, tb, messages.CodeNoTask)
	if h := health(t, a); h.Cluster == nil || h.Cluster.Etcd != "reachable" || h.Stopped {
		t.Fatalf("health once etcd is back: %+v stopped=%v", h.Cluster, h.Stopped)
	}
}

// A Stop lives in etcd: members started afresh (no Stop in their own
// ledgers) after every earlier member stopped are stopped.
func TestClusterStopSurvivesRestartingEveryMember(t *testing.T) {
	etcd := etcdtest.Start(t)
	a, _ := clusterMember(t, etcd, "")
	a.Must(t, "POST", "/api/browser/stop", nil)
	a.Stop(t)
	fresh, tf := clusterMember(t, etcd, "")
	if code := fresh.Act(t, tf, "probe", map[string]any{"action": "observe"}).Code(); code != messages.CodeStopped {
		t.Fatalf("a fresh member answers %q", code)
	}
	if !health(t, fresh).Stopped {
		t.Fatal("a fresh member's health says it is not stopped")
	}
}

// Without etcd a member does not start: it could not know the Stop.
func TestClusterMemberWithoutEtcdDoesNotStart(t *testing.T) {
	etcd := etcdtest.Start(t)
	etcd.Stop()
	o := simOpts(sim.Config{}, nil)
	o.Config.Cluster, o.Config.ClusterEtcd = true, []string{etcd.Endpoint()}
	o.Config.DataDir, o.Config.Addr, o.Config.Driver = t.TempDir(), "127.0.0.1:0", "sim"
	o.Log = slog.New(slog.DiscardHandler)
	if d, err := daemon.Start(o); err == nil {
		t.Cleanup(func() { d.Shutdown(t.Context()) })
		t.Fatal("a member started without etcd")
	}
}

// A Stop made while etcd is away is not acknowledged as shared: the owner
// hears that etcd has not taken it, this member holds it, and once etcd
// is back the Stop lands and holds on the other members too (the
// returning watch does not lift it).
func TestClusterStopMadeWithoutEtcdLandsWhenEtcdReturns(t *testing.T) {
	etcd := etcdtest.Start(t)
	a, ta := clusterMember(t, etcd, "")
	b, tb := clusterMember(t, etcd, "")
	etcd.Stop()
	eventually(t, a, ta, messages.CodeClusterDown)
	r, err := a.Do("POST", "/api/browser/stop", a.Owner, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Code() != messages.CodeStoreFailed || r.Error == nil || !strings.Contains(r.Error.Message, "etcd has not taken it yet") {
		t.Fatalf("a Stop while etcd is away answered %q: %+v", r.Code(), r.Error)
	}
	etcd.Restart()
	eventually(t, b, tb, messages.CodeStopped)
	eventually(t, a, ta, messages.CodeStopped)
}
