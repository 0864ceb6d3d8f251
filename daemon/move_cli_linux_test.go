//go:build linux

package daemon_test

import (
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
)

func TestBuddiMoveMovesASessionAndSaysWhyItCannot(t *testing.T) {
	d, token := setup(t, simOpts(sim.Config{}, nil), "c1", 80)
	cli := buddiCLI(t, func() *daemontest.Daemon { return d })
	code, out, errOut := cli("move", "c1", "c2")
	if code != 0 || !strings.Contains(out, "c1 moved to c2") {
		t.Fatalf("buddi move c1 c2: exit %d, %q %q", code, out, errOut)
	}
	wantMovedTo(t, act(t, d, token, "c1", map[string]any{"action": "observe"}), "c2")
	d.Observe(t, token, "c2")
	code, _, errOut = cli("move", "c1", "c3")
	if code == 0 || !strings.Contains(errOut, "moved to c2") || !strings.Contains(errOut, "(moved)") {
		t.Fatalf("buddi move of an id that moved: exit %d, %q; want a refusal naming c2 with its code", code, errOut)
	}
}
