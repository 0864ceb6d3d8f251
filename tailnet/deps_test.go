package tailnet_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The tailnet node sees only the contract: the surface asks it who a
// connection is through an interface of its own, and the daemon wires it.
func TestTailnetImportsOnlyTheContract(t *testing.T) {
	deptest.Only(t, "tailnet", map[string]string{
		"messages": "the tailnet identity it answers WhoIs with",
	})
}

// Nothing but the daemon (and the binary, through it) links Tailscale: the
// surfaces and the actors never see it.
func TestOnlyTheDaemonImportsTheTailnet(t *testing.T) {
	for _, p := range deptest.Importers(t, deptest.Module+"/tailnet") {
		if p != deptest.Module+"/daemon" {
			t.Errorf("%s imports tailnet; only the daemon wires it", p)
		}
	}
}
