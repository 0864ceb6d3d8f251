package ledger_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

func TestLedgerStoresRecordsNotPolicies(t *testing.T) {
	deptest.Check(t, deptest.Module+"/actors/ledger", map[string]string{
		deptest.Module + "/egress":  "the ledger stores records; what they mean is egress's business",
		deptest.Module + "/drivers": "the ledger knows no driver",
		deptest.Module + "/ui":      "the ledger knows no surface",
	})
}

// The only writer of the store.
func TestLedgerImportsOnlyTheRuntimeAndTheContract(t *testing.T) {
	deptest.Only(t, "actors/ledger", map[string]string{
		"actors":   "the actor runtime",
		"messages": "records and refusals carry the contract's codes",
	})
}
