package daemon_test

import (
	"testing"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/messages"
)

// TestSwitchingToYourBrowserDoesNotLiftAStop: the owner's Stop holds
// across a switch to Your browser and back; only resume-all lifts it. With
// no extension connected, an agent's call in Your browser says so.
func TestSwitchingToYourBrowserDoesNotLiftAStop(t *testing.T) {
	d := daemontest.Start(t, "", daemon.Options{})
	tok := d.AddAgent(t, "ada", true)
	d.Must(t, "POST", "/api/browser/stop", nil)
	d.Must(t, "POST", "/api/settings/browser", map[string]any{"mode": "extension"})
	if h := health(t, d); h.Mode != "extension" || !h.Stopped {
		t.Fatalf("after the switch: mode %s, stopped %v; want extension and still stopped", h.Mode, h.Stopped)
	}
	if code := d.Act(t, tok, "c1", map[string]any{"action": "observe"}).Code(); code != messages.CodeStopped {
		t.Fatalf("an agent's call after the switch answered %q; want %s", code, messages.CodeStopped)
	}
	d.Must(t, "POST", "/api/settings/browser", map[string]any{"mode": "sim"})
	if !health(t, d).Stopped {
		t.Fatal("switching back lifted the Stop")
	}
	d.Must(t, "POST", "/api/browser/resume", messages.OwnerBody{All: true})
	d.Must(t, "POST", "/api/settings/browser", map[string]any{"mode": "extension"})
	d.Task(t, "ada", "c1", 10)
	r := d.Act(t, tok, "c1", map[string]any{"action": "observe"})
	if r.OK || r.Code() != messages.CodeBrowserOffline {
		t.Fatalf("observing in Your browser with no extension: %+v; want %s", r, messages.CodeBrowserOffline)
	}
}
