package main_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The one binary: serve, the CLI, doctor, mcp, loadtest.
func TestTheBinaryImportsOnlyTheTopOfTheTree(t *testing.T) {
	deptest.Only(t, "cmd/buddi", map[string]string{
		"actors/ledger":      "startup errors of the store are told in one sentence",
		"apiclient":          "the CLI speaks to serve through the one client",
		"cluster/shared":     "`buddi cluster init` writes the cluster's secret",
		"config":             "flags and the environment",
		"daemon":             "serve starts it",
		"doctor":             "`buddi doctor`",
		"drivers/native":     "`buddi computer` reads Use my apps' permissions",
		"drivers/playwright": "`buddi browser install`",
		"instance":           "the CLI finds a running serve and its owner token",
		"loadtest":           "`buddi loadtest`",
		"messages":           "the contract: answers, codes, events and the messages it takes",
		"secret":             "`buddi secret` writes the owner's vault, which works without a running serve",
		"ui/audit":           "`buddi audit` reads the trail's files",
		"ui/mcp":             "`buddi mcp` bridges stdio to serve",
	})
}
