package pool_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The pool of browser profiles sessions are placed on.
func TestPoolImportsOnlyDriversAndTheContract(t *testing.T) {
	deptest.Only(t, "actors/controller/pool", map[string]string{
		"drivers":  "it opens profiles through the mode",
		"messages": "the contract: answers, codes, events and the messages it takes",
	})
}
