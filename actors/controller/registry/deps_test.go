package registry_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// Agents and their tokens, a tested part of the controller.
func TestRegistryImportsOnlyTheLedgerTheContractAndSecrets(t *testing.T) {
	deptest.Only(t, "actors/controller/registry", map[string]string{
		"actors/ledger": "agents are ledger records",
		"messages":      "the contract: answers, codes, events and the messages it takes",
		"secret":        "tokens are made and hashed there",
	})
}
