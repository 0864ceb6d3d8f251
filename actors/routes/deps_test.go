package routes_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The routing table answers the gateway from what the controller pushed.
func TestRoutesImportOnlyTheContract(t *testing.T) {
	deptest.Only(t, "actors/routes", map[string]string{
		"messages": "it routes the contract's calls and lists sessions as the contract shows them",
	})
}
