package grains_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

func TestGrainsImportNothingOfBuddis(t *testing.T) {
	deptest.Check(t, deptest.Module+"/cluster/grains", map[string]string{
		deptest.Module + "/":     "the grain runtime is a foundation the member (cluster/member) builds on, so it depends on no part of buddi",
		"github.com/cockroachdb": "grains hold no per-host data; that stays with the ledger",
	})
}

// The grain runtime is protoactor plumbing under the member (cluster/member).
func TestGrainsImportNoPackageOfBuddis(t *testing.T) {
	deptest.Only(t, "cluster/grains", map[string]string{})
}
