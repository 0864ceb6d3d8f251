package ui_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The surfaces see the contract and the actors' client, nothing inside.
var surfaceRules = map[string]string{
	deptest.Module + "/actors":  "surfaces import no actor internals; they use the actors' client",
	deptest.Module + "/drivers": "surfaces never touch a driver",
	deptest.Module + "/daemon":  "surfaces are wired by the daemon, not the other way",
	"github.com/asynkron":       "surfaces do not speak to actors themselves",
}

func TestUIImportsOnlyTheContract(t *testing.T) {
	deptest.Check(t, deptest.Module+"/ui", surfaceRules)
	deptest.Check(t, deptest.Module+"/ui/mcp", surfaceRules)
	deptest.Check(t, deptest.Module+"/ui/telegram", surfaceRules)
	deptest.Check(t, deptest.Module+"/ui/limiter", surfaceRules)
}
