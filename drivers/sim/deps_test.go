package sim_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The simulated browser is a driver like the others.
func TestSimImportsOnlyDriversAndTheContract(t *testing.T) {
	deptest.Only(t, "drivers/sim", map[string]string{
		"drivers":           "it implements the driver and mode interfaces",
		"messages":          "the contract: answers, codes, events and the messages it takes",
		"messages/handwire": "a pinned page takes the hand socket's input",
	})
}
