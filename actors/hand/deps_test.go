package hand_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The remote hand of a take-over.
func TestHandImportsOnlyTheRuntimePacerDriversAndTheContract(t *testing.T) {
	deptest.Only(t, "actors/hand", map[string]string{
		"actors":            "the actor runtime",
		"actors/pacer":      "the hand spawns its screencast pacer",
		"drivers":           "it pins a page and sends it input",
		"messages":          "hand frames and input are the contract's",
		"messages/handwire": "the hand socket's decoded input, which it passes to the page",
	})
}
