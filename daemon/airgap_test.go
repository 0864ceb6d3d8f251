package daemon_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
)

func TestAirGapRefusesInputRecordsItAndWipesLogins(t *testing.T) {
	dir := t.TempDir()
	d := daemontest.Start(t, dir, simOpts(sim.Config{}, nil))
	token := d.AddAgent(t, "ada", false)
	d.Task(t, "ada", "c1", 80)
	wantCode(t, d.Act(t, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1"}), "")
	d.Stop(t)
	profile := filepath.Join(dir, "browser", "profile")
	if err := os.MkdirAll(profile, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(profile, "Cookies"), []byte("session=1"), 0o600); err != nil {
		t.Fatal(err)
	}

	o := simOpts(sim.Config{}, nil)
	o.Config.Egress.AirGap = true
	d = daemontest.Start(t, dir, o)
	if _, err := os.Stat(profile); !os.IsNotExist(err) {
		t.Fatalf("turning air-gap on left the saved logins in place: %v", err)
	}
	d.Task(t, "ada", "c2", 80)
	wantCode(t, d.Act(t, token, "c2", map[string]any{"action": "navigate", "url": "https://example.com/"}), "air_gap")
	// Reads of what is loaded still work; input does not.
	obs := d.Observe(t, token, "c2")
	wantCode(t, d.Act(t, token, "c2", map[string]any{"action": "dom"}), "")
	_ = obs
	d.Stop(t)
	st, err := ledger.Open(ledger.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	refusals, err := st.Refusals()
	if err != nil || len(refusals) != 1 || refusals[0].Action != "navigate" || refusals[0].Code != "air_gap" {
		t.Fatalf("refusal record = %+v, %v; want the one air-gapped navigate", refusals, err)
	}
}
