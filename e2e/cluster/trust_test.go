package cluster_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/daemon/daemontest"
)

// A member without the cluster's secret does not start, and says how to
// make one and where to copy it.
func TestAMemberWithoutTheClustersSecretDoesNotStart(t *testing.T) {
	etcd := etcdtest.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	dir := t.TempDir()
	cmd := exec.CommandContext(ctx, bin, "serve", "--cluster", "--data", dir, "--addr", daemontest.FreeAddr(t))
	cmd.Env = append(cleanEnv(), "BUDDI_DRIVER=sim", "BUDDI_CLUSTER_ETCD="+strings.TrimPrefix(etcd.Endpoint(), "http://"))
	out, err := cmd.CombinedOutput()
	want := "no cluster secret at " + filepath.Join(dir, "cluster.secret") + "; run `buddi cluster init` on one member and copy the file"
	if err == nil || ctx.Err() != nil || !strings.Contains(string(out), want) {
		t.Fatalf("a member without the secret ended with %v, saying %q; want it refused, saying %q", err, out, want)
	}
	t.Logf("a member without the cluster's secret said: %s", out)
}
