package extwire_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The extension's wire carries the contract's errors and codes, and
// nothing else of buddi's.
func TestExtwireImportsOnlyTheContract(t *testing.T) {
	deptest.Only(t, "messages/extwire", map[string]string{
		"messages": "its messages carry the contract's errors and codes",
	})
}
