package doctor

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/shared"
	"github.com/buddi-dev/buddi/config"
)

// The cluster row says etcd answers and lists the members with their free
// sessions, warns when none is registered, says a Stop is in force and
// who keeps the member list when etcd does not, and
// is an error with what to do when etcd does not answer.
func TestClusterRow(t *testing.T) {
	etcd := etcdtest.Start(t)
	endpoint := strings.TrimPrefix(etcd.Endpoint(), "http://")
	c := config.Config{DataDir: t.TempDir(), Cluster: true, ClusterEtcd: []string{endpoint}}
	if r := clusterRow(c); r.Level != Error || !strings.Contains(r.Text, "buddi cluster init") {
		t.Fatalf("no secret file: %+v", r)
	}
	if err := shared.WriteSecret(c.ClusterSecretPath()); err != nil {
		t.Fatal(err)
	}
	secret, err := shared.ReadSecret(c.ClusterSecretPath())
	if err != nil {
		t.Fatal(err)
	}
	if r := clusterRow(c); r.Level != Warning || !strings.Contains(r.Text, "no member is registered") {
		t.Fatalf("no members: %+v", r)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := shared.Open(ctx, shared.Config{Endpoints: []string{endpoint}, Prefix: shared.DefaultPrefix, Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Join(ctx); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"m1", "m2"} {
		r, err := st.Register(ctx, shared.Member{ID: id, Addr: "127.0.0.1:7" + id[1:] + "00",
			Capacity: shared.Capacity{Profiles: 1, Sessions: 8, SessionsInUse: 3}})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Leave()
	}
	r := clusterRow(c)
	if r.Level != OK || !strings.Contains(r.Text, "2 members") || !strings.Contains(r.Text, "m2 at 127.0.0.1:7200, 5 of 8 sessions free") {
		t.Fatalf("two members: %+v", r)
	}
	if _, err := st.SetStop(ctx, true, time.Now()); err != nil {
		t.Fatal(err)
	}
	if r := clusterRow(c); r.Level != OK || !strings.Contains(r.Text, "Stop is in force") || strings.Contains(r.Text, "route conversations by") {
		t.Fatalf("under a Stop: %+v", r)
	}
	k8s := c
	k8s.ClusterMembership = "k8s"
	if r := clusterRow(k8s); r.Level != OK || !strings.Contains(r.Text, "pods' labels") {
		t.Fatalf("with the k8s membership: %+v", r)
	}

	other := c
	other.ClusterSecret = filepath.Join(t.TempDir(), "other.secret")
	if err := shared.WriteSecret(other.ClusterSecret); err != nil {
		t.Fatal(err)
	}
	if r := clusterRow(other); r.Level != Error || !strings.Contains(r.Text, "copy the cluster.secret file of a running member") {
		t.Fatalf("another secret: %+v", r)
	}

	etcd.Stop()
	r = clusterRow(c)
	if r.Level != Error || !strings.Contains(r.Text, "does not answer") || !strings.Contains(r.Text, "BUDDI_CLUSTER_ETCD") || !strings.Contains(r.Text, endpoint) {
		t.Fatalf("etcd away: %+v", r)
	}
	for _, r := range Rows(config.Config{DataDir: t.TempDir()}, Options{}) {
		if r.Name == "cluster" {
			t.Fatalf("a host outside a cluster has a cluster row: %+v", r)
		}
	}
}
