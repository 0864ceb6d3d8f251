package loadtest_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The load harness starts buddi in process (or drives members) through the API.
func TestLoadtestImportsOnlyWhatItDrives(t *testing.T) {
	deptest.Only(t, "loadtest", map[string]string{
		"actors/ledger":     "an idle round weighs the heap once the ledger forgot its write orders",
		"apiclient":         "it drives buddi through the one client",
		"config":            "it starts buddi with a configuration",
		"daemon":            "it starts buddi in process, as serve does",
		"drivers":           "it counts the sim's input by kind",
		"drivers/sim":       "it is one of the two places that choose the sim",
		"instance":          "it reads the owner token of its buddi",
		"internal/slowlink": "remote hands behind a slow link",
		"messages":          "the contract: answers, codes, events and the messages it takes",
		"messages/handwire": "it reads the hand socket's frames as a dashboard tab does",
		"metrics":           "it reads the process's CPU and a target's from /metrics as buddi writes them",
		"ui/audit":          "it counts the lines of its buddi's audit trail",
	})
}
