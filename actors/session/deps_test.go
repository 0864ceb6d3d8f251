package session_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// One conversation: task, budget, observations, pause rules.
func TestSessionImportsOnlyWhatASessionDrives(t *testing.T) {
	deptest.Only(t, "actors/session", map[string]string{
		"actors":           "the actor runtime",
		"actors/ledger":    "the session persists itself",
		"actors/limits":    "the agent's limits",
		"actors/routes":    "it keeps its route current",
		"drivers":          "it drives its tabs",
		"egress":           "URL and typing checks",
		"events":           "it publishes its steps",
		"internal/bounded": "an act's deadline, its timer armed only when waited on",
		"messages":         "the contract: answers, codes, events and the messages it takes",
	})
}
