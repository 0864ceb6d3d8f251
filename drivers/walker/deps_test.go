package walker_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The page engine both browser drivers run.
func TestWalkerImportsOnlyDriversAndEgress(t *testing.T) {
	deptest.Only(t, "drivers/walker", map[string]string{
		"drivers": "it answers in the drivers' targets and refs",
		"egress":  "the typing check and credential rules are egress's",
	})
}
