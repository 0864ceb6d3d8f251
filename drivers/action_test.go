package drivers_test

import (
	"slices"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// Every action the table says a driver performs is a Kind, and no Kind is
// missing from the table: an action added in one place only fails here.
func TestKindsAreTheTablesDriverActions(t *testing.T) {
	var kinds []string
	for _, k := range drivers.Kinds {
		kinds = append(kinds, string(k))
	}
	if want := messages.ActionNames(messages.Driven); !slices.Equal(kinds, want) {
		t.Fatalf("drivers.Kinds = %v, the table's driver actions are %v", kinds, want)
	}
	for _, k := range drivers.Kinds {
		if k.Mutating() != k.Spec().Mutating {
			t.Errorf("%s: Mutating disagrees with the table", k)
		}
	}
}
