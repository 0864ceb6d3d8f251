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
