package pacer_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The screencast pacer.
func TestPacerImportsOnlyTheRuntimeDriversAndTheContract(t *testing.T) {
	deptest.Only(t, "actors/pacer", map[string]string{
		"actors":            "the actor runtime",
		"drivers":           "frames come from the driver's screencast",
		"messages":          "frames are the contract's",
		"messages/handwire": "the owner's hand input, which it passes to the pinned page",
	})
}
