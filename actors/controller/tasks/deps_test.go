package tasks_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The task state machine, a tested part of the controller.
func TestTasksImportOnlyTheLedgerAndTheContract(t *testing.T) {
	deptest.Only(t, "actors/controller/tasks", map[string]string{
		"actors/ledger": "its records are the ledger's",
		"messages":      "the contract: answers, codes, events and the messages it takes",
	})
}
