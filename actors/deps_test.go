package actors_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestBinaryAvoidsClusterDependencies fails if buddi starts depending on
// protoactor's remote or cluster packages or their service backends, and
// if any package of buddi's but the cluster's own (cluster/...) imports
// etcd or gRPC: cluster mode is wired through cluster/shared only. The
// session grains (cluster/grains) are built and tested but not yet wired
// into the binary; when they are, protoactor's remote and cluster move
// from banned to cluster-only here.
func TestBinaryAvoidsClusterDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{join .Imports \" \"}}",
		"github.com/buddi-dev/buddi/cmd/buddi").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	banned := []string{
		"github.com/asynkron/protoactor-go/remote", "github.com/asynkron/protoactor-go/cluster",
		"github.com/hashicorp/consul", "k8s.io/",
	}
	clusterOnly := []string{"go.etcd.io/etcd", "google.golang.org/grpc"}
	var extconn, etcd bool
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, " ")
		extconn = extconn || pkg == "github.com/buddi-dev/buddi/actors/extconn"
		etcd = etcd || strings.HasPrefix(pkg, "go.etcd.io/etcd/client/v3")
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
	if !extconn || !etcd {
		t.Errorf("the binary does not link the extension connection (%v) or the cluster's etcd client (%v); the list checked the wrong thing", extconn, etcd)
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
