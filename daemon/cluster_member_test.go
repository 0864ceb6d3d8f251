package daemon_test

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/shared"
	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/drivers/sim"
)

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
	withSecret(t, dir)
	d, err := daemon.Start(o)
	if err == nil {
		t.Cleanup(func() { _ = d.Shutdown(t.Context()) })
		t.Fatal("a member started with a bad member id")
	}
	if !strings.Contains(err.Error(), filepath.Join(dir, daemon.MemberIDFile)) || !strings.Contains(err.Error(), "remove it") {
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
