//go:build linux

package daemon_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/messages"
)

// TestComputerModeOnALinuxDesktop: with the Linux helper and a desktop,
// Use my apps is offered but not chosen; once the owner chooses it, an
// agent opens the allowed calculator, observes ax refs and clicks one by
// ref through browser.act; after a restart the stored choice holds.
func TestComputerModeOnALinuxDesktop(t *testing.T) {
	helper := linuxDesktop(t)
	dir := settingsDir(t, map[string]any{"allowedApps": []string{calcID}})
	var o daemon.Options
	o.Config.ComputerHelper = helper
	d := daemontest.Start(t, dir, o)
	s := browserSettings(t, d)
	if c := modeChoice(s, "computer"); !c.Available || s.Mode == "computer" {
		t.Fatalf("mode %s, computer choice %+v; want it offered and not chosen", s.Mode, c)
	}
	d.Must(t, "POST", "/api/settings/browser", map[string]any{"mode": "computer"})
	if s := browserSettings(t, d); s.Mode != "computer" {
		t.Fatalf("the mode is %s after the owner chose computer", s.Mode)
	}

	token := d.AddAgent(t, "ada", true)
	d.Task(t, "ada", "c1", 80)
	if r := d.Act(t, token, "c1", map[string]any{"action": "open", "appId": "org.gnome.Calculator"}); !r.OK {
		t.Fatalf("open: %s: %s", r.Code(), r.Error.Message)
	}
	raw := calculatorShows(t, helper)
	seven := regexp.MustCompile(`button "7[^"]*" \[ref=(ax[0-9]+)\]`)
	obs := d.Observe(t, token, "c1")
	m := seven.FindStringSubmatch(obs["text"].(string))
	if m == nil {
		t.Fatalf("no button 7 in the observation:\n%v", obs["text"])
	}
	r := d.Act(t, token, "c1", map[string]any{"action": "click", "observation": obs["observation"], "target": map[string]any{"ref": m[1]}})
	if !r.OK {
		t.Fatalf("click %s: %s: %s", m[1], r.Code(), r.Error.Message)
	}
	t.Logf("the agent saw:\n%s", obs["text"])

	// A pixel of the unchanged screenshot: the helper says where button 8 is.
	x, y := -1, -1
	for _, n := range raw.Nodes {
		if n.Role == "button" && strings.HasPrefix(n.Name, "8") {
			x, y = n.Box.Center()
		}
	}
	// The calculator may still be redrawing after the 7: a pixel click on
	// an observation of a window that changed since is refused
	// (stale_ref), and the next observation is the one to click on.
	for i := 0; i < 10; i++ {
		obs = d.Observe(t, token, "c1")
		r = d.Act(t, token, "c1", map[string]any{"action": "click", "observation": obs["observation"], "target": map[string]any{"x": x, "y": y}})
		if r.OK || r.Code() != "stale_ref" {
			break
		}
	}
	if !r.OK {
		t.Fatalf("pixel click at %d,%d: %s: %s", x, y, r.Code(), r.Error.Message)
	}
	entry := regexp.MustCompile(`textbox value="([^"]*)" focused editable`)
	// Both digits show (the calculator puts a clicked digit where its
	// cursor is, so 78 or 87).
	shows := func() bool {
		m := entry.FindStringSubmatch(d.Observe(t, token, "c1")["text"].(string))
		return m != nil && (m[1] == "78" || m[1] == "87")
	}
	ok := false
	for i := 0; i < 20 && !ok; i++ { // the calculator redraws in its own time
		ok = shows()
	}
	if !ok {
		t.Fatalf("after 7 by ref and 8 by pixel the entry does not show both:\n%s", d.Observe(t, token, "c1")["text"])
	}

	// The computer is c1's between its calls: c2 is refused, and gets it once
	// c1 releases control.
	d.Task(t, "ada", "c2", 40)
	openCalc := map[string]any{"action": "open", "appId": "org.gnome.Calculator"}
	if r := d.Act(t, token, "c2", openCalc); r.OK || r.Code() != messages.CodeNotAllowed || !strings.Contains(r.Error.Message, "Another conversation controls the computer") {
		t.Fatalf("c2's open while c1 holds the computer: %+v", r.Raw)
	}
	d.Must(t, "POST", "/api/browser/release", map[string]any{"conversation": "c1"})
	if r := d.Act(t, token, "c2", openCalc); !r.OK {
		t.Fatalf("c2's open after c1 released: %s: %s", r.Code(), r.Error.Message)
	}

	// The owner's Stop holds across a restart; a resume gives the computer back.
	d.Must(t, "POST", "/api/browser/stop", nil)
	d.Stop(t)
	d = daemontest.Start(t, dir, o)
	if s := browserSettings(t, d); s.Mode != "computer" {
		t.Fatalf("after a restart the mode is %s; want the stored computer", s.Mode)
	}
	token = d.AddAgent(t, "bob", true)
	d.Must(t, "POST", "/api/browser/resume", map[string]any{"all": true})
	d.Task(t, "bob", "c4", 40)
	var again *daemontest.Reply
	for range 100 { // the lock hears the resume through the event bus
		if again = d.Act(t, token, "c4", openCalc); again.OK || again.Code() != messages.CodeStopped {
			break
		}
	}
	if !again.OK {
		t.Fatalf("open after the owner resumed: %s: %s", again.Code(), again.Error.Message)
	}
}
