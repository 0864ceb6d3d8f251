package daemon_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/sim"
)

// airGapSim serves the simulated site (the owner's preview) and a public
// copy of it, and sends /away on the preview to the public copy's form the
// way a server redirect would: the simulation has no hook to refuse the
// hop, so the agent lands on a page outside the preview under air-gap.
func airGapSim() sim.Config {
	return sim.Config{Hosts: []string{"shop.example.com"},
		Redirects: map[string]string{sim.Origin + "/away": shop + "/form/1"}}
}

func TestAirGapRefusesNavigationClickAndFillAndRecordsEach(t *testing.T) {
	dir := t.TempDir()
	var in inputs
	o := simOpts(airGapSim(), &in)
	o.Config.Egress.AirGap = true
	o.Config.SiteApproval = "ask"
	d := daemontest.Start(t, dir, o)
	token := d.AddAgent(t, "ada", false)
	d.Task(t, "ada", "c1", 80)

	r := d.Act(t, token, "c1", nav(shop+"/p/1"))
	wantCode(t, r, "air_gap")
	if !strings.Contains(r.Error.Message, "turn air-gap off in the dashboard's Settings → Privacy & Safety") {
		t.Fatalf("the air-gap refusal does not say the way back: %q", r.Error.Message)
	}
	// The preview is untouched by air-gap, site approval and page-link rules.
	wantCode(t, d.Act(t, token, "c1", map[string]any{"action": "navigate", "url": sim.Origin + "/p/2?q=1", "urlSource": "page_link"}), "")
	wantCode(t, d.Act(t, token, "c1", nav(sim.Origin+"/away")), "")
	obs := d.Observe(t, token, "c1") // reading the page loaded is never refused
	if obs["url"] != shop+"/form/1" {
		t.Fatalf("the redirect landed on %v", obs["url"])
	}
	wantCode(t, d.Act(t, token, "c1", map[string]any{"action": "dom"}), "")
	id := daemontest.ID(obs)
	wantCode(t, d.Act(t, token, "c1", map[string]any{"action": "fill", "observation": id,
		"target": map[string]any{"ref": daemontest.Ref(t, obs, "textbox", "Name")}, "value": "Ada"}), "air_gap")
	wantCode(t, d.Act(t, token, "c1", map[string]any{"action": "click", "observation": id,
		"target": map[string]any{"ref": daemontest.Ref(t, obs, "button", "Send")}}), "air_gap")
	if n := in.count("c1", drivers.Fill) + in.count("c1", drivers.Click); n != 0 {
		t.Fatalf("%d inputs reached a page outside the preview under air-gap", n)
	}
	d.Stop(t)

	refusals := daemontest.Refusals(t, dir)
	got := map[string]string{}
	for _, r := range refusals {
		if r.Code != "air_gap" || r.Conversation != "c1" || r.Agent != "ada" {
			t.Errorf("refusal %+v", r)
		}
		got[r.Action] = r.URL
	}
	want := map[string]string{"navigate": shop + "/p/1", "fill": shop + "/form/1", "click": shop + "/form/1"}
	if len(refusals) != 3 || len(got) != 3 {
		t.Fatalf("the refusal record holds %+v; want one each of %v", refusals, want)
	}
	for a, u := range want {
		if got[a] != u {
			t.Errorf("the %s refusal names %q, want %q", a, got[a], u)
		}
	}
}

func TestTurningAirGapOnWipesTheSavedLogins(t *testing.T) {
	dir := t.TempDir()
	d := daemontest.Start(t, dir, simOpts(sim.Config{}, nil))
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
	daemontest.Start(t, dir, o)
	if _, err := os.Stat(profile); !os.IsNotExist(err) {
		t.Fatalf("turning air-gap on left the saved logins in place: %v", err)
	}
}

// Air-gap turned on from the owner's settings (no session open) holds at
// once: what browser.status tells agents follows it without a restart, and
// the public copy of the site is refused.
func TestAirGapTurnedOnInSettingsIsWhatStatusSays(t *testing.T) {
	d := daemontest.Start(t, "", simOpts(airGapSim(), nil))
	token := d.AddAgent(t, "ada", false)
	reach := func() map[string]any {
		st := d.Tool(t, token, "browser.status", "c1", map[string]any{})
		r, _ := st.Map()["reach"].(map[string]any)
		return r
	}
	if r := reach(); r["airGap"] == true {
		t.Fatalf("before: reach %v says air-gap", r)
	}
	d.Must(t, "POST", "/api/settings/browser", map[string]any{"airGap": true})
	if r := reach(); r["airGap"] != true {
		t.Fatalf("after turning air-gap on, browser.status says %v", r)
	}
	d.Task(t, "ada", "c1", 80)
	wantCode(t, d.Act(t, token, "c1", nav(shop+"/p/1")), "air_gap")
}

// An air-gap BUDDI_AIR_GAP sets cannot be turned off in the dashboard: the
// way back agents are told is a restart without it.
func TestAirGapSetByEnvironmentSaysRestart(t *testing.T) {
	var in inputs
	o := simOpts(airGapSim(), &in)
	o.Config.Egress.AirGap = true
	o.Config.Given = map[string]bool{"BUDDI_AIR_GAP": true}
	d := daemontest.Start(t, t.TempDir(), o)
	token := d.AddAgent(t, "ada", false)
	d.Task(t, "ada", "c1", 80)
	r := d.Act(t, token, "c1", nav(shop+"/p/1"))
	wantCode(t, r, "air_gap")
	if !strings.Contains(r.Error.Message, "restart buddi without BUDDI_AIR_GAP") || strings.Contains(r.Error.Message, "Settings") {
		t.Fatalf("an air-gap set by the environment gives the way back %q", r.Error.Message)
	}
}
