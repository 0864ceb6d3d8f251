package drivers_test

import (
	"slices"
	"testing"
	"time"

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

func TestTimeoutOrTakesTheActionsBoundWithinTheCeiling(t *testing.T) {
	for _, c := range []struct{ own, def, ceiling, want time.Duration }{
		{0, 5 * time.Second, 15 * time.Second, 5 * time.Second},
		{9 * time.Second, 5 * time.Second, 15 * time.Second, 9 * time.Second},
		{30 * time.Second, 5 * time.Second, 15 * time.Second, 15 * time.Second},
		{30 * time.Second, 5 * time.Second, 0, 30 * time.Second},
	} {
		if got := (&drivers.Action{Timeout: c.own}).TimeoutOr(c.def, c.ceiling); got != c.want {
			t.Errorf("timeout %v, default %v, ceiling %v: %v, want %v", c.own, c.def, c.ceiling, got, c.want)
		}
	}
}
