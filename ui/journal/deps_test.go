package journal_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The dashboard's journal of steps, fed by events.
func TestJournalImportsOnlyTheBusAndTheContract(t *testing.T) {
	deptest.Only(t, "ui/journal", map[string]string{
		"events":   "it is fed by the bus",
		"messages": "the contract: answers, codes, events and the messages it takes",
	})
}
