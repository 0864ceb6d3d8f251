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
	for _, dep := range strings.Split(string(out), "\n") {
		for _, b := range banned {
			if strings.HasPrefix(dep, b) {
				t.Errorf("the binary depends on %s", dep)
			}
		}
	}
}
