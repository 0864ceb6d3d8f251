package stop_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The one owner of the Stop, beside the ledger.
func TestStopImportsOnlyTheRuntimeTheLedgerTheBusAndTheContract(t *testing.T) {
	deptest.Only(t, "actors/stop", map[string]string{
		"actors":        "the actor runtime",
		"actors/ledger": "the Stop is a ledger record",
		"events":        "it publishes StopChanged",
		"messages":      "the owner's Stop and resume, and the cluster's flag",
	})
}
