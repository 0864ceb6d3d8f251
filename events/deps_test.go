package events_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

func TestEventsNeedOnlyTheContract(t *testing.T) {
	deptest.Check(t, deptest.Module+"/events", map[string]string{
		deptest.Module + "/actors":  "events are read by surfaces, which import no actor",
		deptest.Module + "/drivers": "events are read by surfaces, which import no driver",
		"github.com/asynkron":       "events are read by surfaces, which import no actor runtime",
	})
}

// The bus carries the contract's events to surfaces and actors alike.
func TestEventsImportOnlyTheContract(t *testing.T) {
	deptest.Only(t, "events", map[string]string{
		"messages": "events are the contract's types",
	})
}
