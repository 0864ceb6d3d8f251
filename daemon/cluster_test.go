package daemon_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"testing"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
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
	if d, err := daemon.Start(o); err == nil {
		t.Cleanup(func() { d.Shutdown(t.Context()) })
		t.Fatal("a member started without etcd")
	}
}
