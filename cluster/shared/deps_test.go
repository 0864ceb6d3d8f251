package shared_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

func TestSharedStateImportsNothingOfBuddis(t *testing.T) {
	deptest.Check(t, deptest.Module+"/cluster/shared", map[string]string{
		deptest.Module + "/":     "shared state is a foundation the cluster wiring builds on, so it depends on no part of buddi",
		"github.com/asynkron":    "shared state talks to etcd only; placement and routing belong to the cluster wiring",
		"github.com/cockroachdb": "shared state lives in etcd; per-host data stays with the ledger",
	})
}

// Shared state is etcd plumbing under the member (cluster/member).
func TestSharedStateImportsNoPackageOfBuddis(t *testing.T) {
	deptest.Only(t, "cluster/shared", map[string]string{})
}
