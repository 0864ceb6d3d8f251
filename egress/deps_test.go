package egress_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// Egress confines the browser; it knows no actor, driver or surface.
func TestEgressImportsOnlyItsNamespaceAndTheContract(t *testing.T) {
	deptest.Only(t, "egress", map[string]string{
		"egress/netns": "Live listens in the browser's own network namespace as root",
		"messages":     "refusals carry the contract's codes",
	})
}
