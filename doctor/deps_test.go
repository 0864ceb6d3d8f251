package doctor_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// `buddi doctor` reads the install it checks; it runs no actor.
func TestDoctorImportsOnlyWhatItChecks(t *testing.T) {
	deptest.Only(t, "doctor", map[string]string{
		"actors/ledger":      "it opens the store read-only",
		"cluster/shared":     "it reaches the cluster's etcd",
		"config":             "the install is a configuration",
		"drivers/playwright": "it finds and launches the browser",
		"egress":             "the egress settings",
		"egress/netns":       "whether the browser gets a network of its own",
		"extension":          "the extension's record",
		"messages":           "rows are the contract's",
	})
}
