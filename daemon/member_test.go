package daemon_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/member"
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
	withSecret(t, o.Config.DataDir)
	d, err := daemon.Start(o)
	if err == nil {
		t.Cleanup(func() { d.Shutdown(t.Context()) })
		t.Fatal("a member started without etcd")
	}
	if !strings.Contains(err.Error(), "does not answer") {
		t.Fatalf("the refusal does not say etcd does not answer: %v", err)
	}
}

// A member refuses an etcd beyond loopback spoken to without TLS, unless
// told to accept it; then it goes on to reach it.
func TestClusterMemberRefusesPlaintextEtcdBeyondLoopback(t *testing.T) {
	cases := map[string]struct {
		accept  bool
		refused bool
	}{
		"refused by default":               {false, true},
		"accepted with the plaintext flag": {true, false},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			o := simOpts(sim.Config{}, nil)
			// TEST-NET-1: never answers, so an accepted one fails to connect
			o.Config.Cluster, o.Config.ClusterEtcd = true, []string{"http://192.0.2.1:2379"}
			o.Config.ClusterPlaintextEtcd = c.accept
			o.Config.DataDir, o.Config.Addr, o.Config.Driver = t.TempDir(), "127.0.0.1:0", "sim"
			o.Log = slog.New(slog.DiscardHandler)
			withSecret(t, o.Config.DataDir)
			d, err := daemon.Start(o)
			if err == nil {
				t.Cleanup(func() { d.Shutdown(t.Context()) })
				t.Fatal("a member started with an etcd that cannot answer")
			}
			if got := strings.Contains(err.Error(), "--cluster-plaintext-etcd"); got != c.refused {
				t.Fatalf("refused for plaintext: %v, want %v: %v", got, c.refused, err)
			}
		})
	}
}

// A member id file that holds no usable id stops the member from starting
// with a sentence that says what to do.
func TestClusterMemberRefusesABadMemberID(t *testing.T) {
	etcd := etcdtest.Start(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, member.IDFile), []byte("no/such id\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	o := simOpts(sim.Config{}, nil)
	o.Config.Cluster, o.Config.ClusterEtcd = true, []string{etcd.Endpoint()}
	o.Config.DataDir, o.Config.Addr, o.Config.Driver, o.Config.LogLevel = dir, "127.0.0.1:0", "sim", "warn"
	o.Log = slog.New(slog.DiscardHandler)
	withSecret(t, dir)
	d, err := daemon.Start(o)
	if err == nil {
		t.Cleanup(func() { _ = d.Shutdown(t.Context()) })
		t.Fatal("a member started with a bad member id")
	}
	if !strings.Contains(err.Error(), filepath.Join(dir, member.IDFile)) || !strings.Contains(err.Error(), "remove it") {
		t.Fatalf("the refusal does not say which file to fix and how: %v", err)
	}
}

// withSecret gives the member whose data directory is dir a cluster
// secret, as `buddi cluster init` does.
func withSecret(t *testing.T, dir string) {
	t.Helper()
	if err := shared.WriteSecret(filepath.Join(dir, shared.SecretFile)); err != nil {
		t.Fatal(err)
	}
}
