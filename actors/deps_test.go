package actors_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestBinaryAvoidsClusterDependencies fails if buddi starts depending on
// protoactor's remote or cluster packages or their service backends.
func TestBinaryAvoidsClusterDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/buddi-dev/buddi/cmd/buddi").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	banned := []string{
		"github.com/asynkron/protoactor-go/remote", "github.com/asynkron/protoactor-go/cluster",
		"github.com/hashicorp/consul", "go.etcd.io/etcd", "k8s.io/", "google.golang.org/grpc",
	}
	var extconn bool
	for _, dep := range strings.Split(string(out), "\n") {
		extconn = extconn || dep == "github.com/buddi-dev/buddi/actors/extconn"
	}
	if !extconn {
		t.Error("the binary does not link the extension connection (actors/extconn); the list above checked the wrong thing")
	}
	for _, dep := range strings.Split(string(out), "\n") {
		for _, b := range banned {
			if strings.HasPrefix(dep, b) {
				t.Errorf("the binary depends on %s", dep)
			}
		}
	}
}
