package daemon_test

import (
	"testing"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/sim"
)

// find, observe within and a full read's continuation each give a new
// observation: its refs are the ones to act on, and the older ones are
// refused.
func TestReadsAreObservations(t *testing.T) {
	var in inputs
	d, token := setup(t, simOpts(sim.Config{Elements: 1000}, &in), "c1", 80)
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1"}), "")
	first := d.Observe(t, token, "c1")
	footer := daemontest.Ref(t, first, "contentinfo", "")

	r := act(t, d, token, "c1", map[string]any{"action": "find", "role": "link", "name": "Help", "exact": true})
	wantCode(t, r, "")
	found := r.Map()
	if daemontest.ID(found) == daemontest.ID(first) {
		t.Fatal("find did not give a new observation id")
	}
	help := daemontest.Ref(t, found, "link", "Help")
	// A region read names a ref of the latest observation only.
	r = act(t, d, token, "c1", map[string]any{"action": "observe", "within": footer})
	wantCode(t, r, "stale_ref")
	latest := daemontest.Evidence(t, r)
	// The first observation is no longer the latest.
	r = act(t, d, token, "c1", map[string]any{"action": "click", "observation": daemontest.ID(first), "target": map[string]any{"ref": help}})
	wantCode(t, r, "stale_observation")
	if daemontest.ID(daemontest.Evidence(t, r)) == daemontest.ID(latest) {
		t.Fatal("the refusal's evidence is not a new observation")
	}
	latest = daemontest.Evidence(t, r)
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "click", "observation": daemontest.ID(latest), "target": map[string]any{"ref": daemontest.Ref(t, latest, "link", "Help")}}), "")
	if n := in.count("c1", drivers.Click); n != 1 {
		t.Fatalf("%d clicks reached the page, want 1", n)
	}

	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/2"}), "")
	r = act(t, d, token, "c1", map[string]any{"action": "observe", "fullPage": true})
	wantCode(t, r, "")
	part := r.Map()
	cont, ok := part["continues"].(map[string]any)
	if left, _ := part["left"].(float64); !ok || cont["fullPage"] != true || cont["after"] == "" || left <= 0 {
		t.Fatalf("a long page's first part has no continuation: %v", part["continues"])
	}
	cont["action"] = "observe"
	wantCode(t, act(t, d, token, "c1", cont), "")
}
