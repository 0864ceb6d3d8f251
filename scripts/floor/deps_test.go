package main_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The floor is HTTP with nothing of buddi behind it: of buddi it has only
// the client side the load test has, never a part of the daemon.
func TestFloorImportsOnlyTheClientSide(t *testing.T) {
	deptest.Only(t, "scripts/floor", map[string]string{
		"apiclient": "it sends each request through the client the load test uses",
		"messages":  "it reads each answer as the load test reads an act's (ActReply)",
		"metrics":   "its own CPU is read as the load test reads its own (CPUTime)",
	})
	deptest.Check(t, deptest.Module+"/scripts/floor", map[string]string{
		deptest.Module + "/daemon": "the floor measures HTTP without the daemon",
		deptest.Module + "/actors": "the floor measures HTTP without the daemon",
		deptest.Module + "/ui":     "the floor measures HTTP without the daemon's server",
	})
}
