package controller_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The thin router over its tested parts.
func TestControllerImportsOnlyItsPartsAndWhatItRoutesTo(t *testing.T) {
	deptest.Only(t, "actors/controller", map[string]string{
		"actors":                     "the actor runtime",
		"actors/controller/appgate":  "its part",
		"actors/controller/chat":     "its part",
		"actors/controller/devices":  "its part",
		"actors/controller/pool":     "its part",
		"actors/controller/registry": "its part",
		"actors/controller/sitegate": "its part",
		"actors/controller/tasks":    "its part",
		"actors/ledger":              "owner writes go to the ledger",
		"actors/limits":              "the agents' limits, shared with sessions",
		"actors/routes":              "it pushes who may call which session",
		"actors/session":             "it spawns the sessions",
		"actors/stop":                "it follows the Stop and fans it out",
		"drivers":                    "the mode sessions are placed on",
		"egress":                     "site answers and URL rules",
		"events":                     "it publishes tasks and sessions",
		"messages":                   "the contract: answers, codes, events and the messages it takes",
	})
}
