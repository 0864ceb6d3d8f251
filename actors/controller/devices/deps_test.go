package devices_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The signed-in devices, a tested part of the controller.
func TestDevicesImportOnlyTheLedgerAndTheContract(t *testing.T) {
	deptest.Only(t, "actors/controller/devices", map[string]string{
		"actors/ledger": "its records are the ledger's",
		"messages":      "the contract: answers, codes, events and the messages it takes",
	})
}
