package sitegate_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The owner's site answers, a tested part of the controller.
func TestSitegateImportsOnlyEgressAndTheContract(t *testing.T) {
	deptest.Only(t, "actors/controller/sitegate", map[string]string{
		"egress":   "sites and approvals are egress's",
		"messages": "the contract: answers, codes, events and the messages it takes",
	})
}
