package desktop_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The desktop lock of Use my apps.
func TestDesktopImportsOnlyTheLedgerTheBusAndTheContract(t *testing.T) {
	deptest.Only(t, "actors/desktop", map[string]string{
		"actors/ledger": "the lock is kept in the ledger",
		"events":        "it follows the Stop and take-overs on the bus",
		"messages":      "the contract: answers, codes, events and the messages it takes",
	})
}
