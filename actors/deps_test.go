package actors_test

import (
	"github.com/buddi-dev/buddi/internal/deptest"

	"os/exec"
	"strings"
	"testing"
)

// TestClusterDependenciesStayUnderCluster fails if buddi starts depending
// on a membership service it does not offer (zookeeper) or, unless built
// with the k8s tag, on the Kubernetes client, and if any package of
// buddi's but the cluster's own (cluster/...) imports etcd, gRPC, the
// Kubernetes or consul clients or protoactor's remote and cluster: cluster
// mode lives under cluster/... (cluster/member joins this buddi's actors to
// cluster/shared and cluster/grains; the daemon only starts it). The
// cluster stays linked into the one default binary (an owner who outgrows
// one host runs serve --cluster without rebuilding; a single-host serve
// starts nothing of it); only the Kubernetes client stays behind -tags k8s.
func TestClusterDependenciesStayUnderCluster(t *testing.T) {
	for _, tags := range []string{"", "k8s"} {
		t.Run("tags="+tags, func(t *testing.T) { clusterDependencies(t, tags) })
	}
}

func clusterDependencies(t *testing.T, tags string) {
	out, err := exec.Command("go", "list", "-tags", tags, "-deps", "-f", "{{.ImportPath}} {{join .Imports \" \"}}",
		"github.com/buddi-dev/buddi/cmd/buddi").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	banned := []string{"github.com/go-zookeeper/", "github.com/asynkron/protoactor-go/cluster/clusterproviders/zk"}
	if tags != "k8s" {
		banned = append(banned, "k8s.io/")
	}
	clusterOnly := []string{"go.etcd.io/etcd", "google.golang.org/grpc", "k8s.io/", "github.com/hashicorp/consul",
		"github.com/asynkron/protoactor-go/remote", "github.com/asynkron/protoactor-go/cluster"}
	var extconn, etcd, grains, kube bool
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, " ")
		extconn = extconn || pkg == "github.com/buddi-dev/buddi/actors/extconn"
		etcd = etcd || strings.HasPrefix(pkg, "go.etcd.io/etcd/client/v3")
		grains = grains || pkg == "github.com/asynkron/protoactor-go/cluster"
		kube = kube || pkg == "k8s.io/client-go/kubernetes"
		for _, b := range banned {
			if strings.HasPrefix(pkg, b) {
				t.Errorf("the binary depends on %s", pkg)
			}
		}
		if !strings.HasPrefix(pkg, "github.com/buddi-dev/buddi/") || strings.HasPrefix(pkg, "github.com/buddi-dev/buddi/cluster/") {
			continue
		}
		for _, imp := range strings.Fields(imports) {
			for _, c := range clusterOnly {
				if strings.HasPrefix(imp, c) {
					t.Errorf("%s imports %s; only cluster/... may", pkg, imp)
				}
			}
		}
	}
	if !extconn || !etcd || !grains || kube != (tags == "k8s") {
		t.Errorf("the binary does not link the extension connection (%v), the cluster's etcd client (%v) or protoactor's cluster (%v), or it links the Kubernetes client (%v) where the k8s tag is %q; the list checked the wrong thing", extconn, etcd, grains, kube, tags)
	}
}

// TestOnlyClusterPackagesImportProtoactorCluster fails if any package of
// buddi's outside cluster/... imports protoactor's remote or cluster
// packages directly, tests not counted: placement and routing are reached
// through cluster/grains.
func TestOnlyClusterPackagesImportProtoactorCluster(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}",
		"github.com/buddi-dev/buddi/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	clusterOnly := []string{"github.com/asynkron/protoactor-go/remote", "github.com/asynkron/protoactor-go/cluster"}
	var grains bool
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, " ")
		inCluster := strings.HasPrefix(pkg, "github.com/buddi-dev/buddi/cluster/")
		for _, imp := range strings.Fields(imports) {
			for _, c := range clusterOnly {
				if !strings.HasPrefix(imp, c) {
					continue
				}
				grains = grains || pkg == "github.com/buddi-dev/buddi/cluster/grains"
				if !inCluster {
					t.Errorf("%s imports %s; only cluster/... may", pkg, imp)
				}
			}
		}
	}
	if !grains {
		t.Error("cluster/grains does not import protoactor's cluster; the list checked the wrong thing")
	}
}

// The actor runtime (logger, supervision, Unhandled) is below every actor.
func TestActorsImportNothingOfBuddis(t *testing.T) {
	deptest.Only(t, "actors", map[string]string{})
}
