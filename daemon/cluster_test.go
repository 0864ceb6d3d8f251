package daemon_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/shared"
	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
)

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

// Without etcd a member does not start: it could not know the Stop.
func TestClusterMemberWithoutEtcdDoesNotStart(t *testing.T) {
	etcd := etcdtest.Start(t)
	etcd.Stop()
	o := simOpts(sim.Config{}, nil)
	o.Config.Cluster, o.Config.ClusterEtcd = true, []string{etcd.Endpoint()}
	o.Config.DataDir, o.Config.Addr, o.Config.Driver = t.TempDir(), "127.0.0.1:0", "sim"
	o.Log = slog.New(slog.DiscardHandler)
	if err := shared.MakeSecret(o.Config.ClusterSecretPath()); err != nil {
		t.Fatal(err)
	}
	d, err := daemon.Start(o)
	if err == nil {
		t.Cleanup(func() { d.Shutdown(t.Context()) })
		t.Fatal("a member started without etcd")
	}
	if !strings.Contains(err.Error(), "does not answer") {
		t.Fatalf("a member without etcd said %q; want that etcd does not answer", err)
	}
}

// A member refuses to reach an etcd beyond loopback without TLS, saying
// how to give TLS or accept the risk; with --cluster-plaintext-etcd it
// tries, and logs that it does. An etcd on loopback needs neither.
func TestClusterMemberRefusesPlaintextEtcdBeyondLoopback(t *testing.T) {
	for name, c := range map[string]struct {
		endpoint  string
		plaintext bool
		says      string
		logs      bool
	}{
		"beyond loopback":          {endpoint: "192.0.2.1:2379", says: "is not on this host and no TLS is configured"},
		"a name beyond loopback":   {endpoint: "etcd.example:2379", says: "--cluster-plaintext-etcd"},
		"beyond loopback, opt-out": {endpoint: "192.0.2.1:2379", plaintext: true, says: "does not answer", logs: true},
		"loopback":                 {endpoint: "127.0.0.1:1", says: "does not answer"},
		"localhost":                {endpoint: "localhost:1", says: "does not answer"},
	} {
		t.Run(name, func(t *testing.T) {
			var logs strings.Builder
			o := simOpts(sim.Config{}, nil)
			o.Config.Cluster, o.Config.ClusterEtcd, o.Config.ClusterPlaintextEtcd = true, []string{c.endpoint}, c.plaintext
			o.Config.DataDir, o.Config.Addr, o.Config.Driver = t.TempDir(), "127.0.0.1:0", "sim"
			o.Log = slog.New(slog.NewTextHandler(&logs, nil))
			if err := shared.MakeSecret(o.Config.ClusterSecretPath()); err != nil {
				t.Fatal(err)
			}
			d, err := daemon.Start(o)
			if err == nil {
				t.Cleanup(func() { _ = d.Shutdown(t.Context()) })
				t.Fatal("a member started without etcd")
			}
			if !strings.Contains(err.Error(), c.says) {
				t.Fatalf("the member said %q; want %q", err, c.says)
			}
			if got := strings.Contains(logs.String(), "beyond loopback without TLS"); got != c.logs {
				t.Fatalf("logged the plaintext etcd: %v, want %v; logs:\n%s", got, c.logs, logs.String())
			}
		})
	}
}
