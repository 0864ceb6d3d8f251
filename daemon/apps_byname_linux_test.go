//go:build linux

package daemon_test

import (
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/messages"
)

// TestOpenAnAppByName: an open by name is resolved to the one installed
// app of that name before the owner is asked. No match and several matches
// are refused with their codes (the candidates listed by name and id) and
// raise no card; one match raises a card naming the app's id as found on
// this machine, with nothing launched while it waits; after Once the open
// by name brings that app forward.
func TestOpenAnAppByName(t *testing.T) {
	d, _, _, desk := computerDesktop(t, []string{})
	desk.AddApp(t, "org.example.TwinA", "Twin", "true")
	desk.AddApp(t, "org.example.TwinB", "twin", "true")
	token := d.AddAgent(t, "ada", true)
	d.Task(t, "ada", "c1", 40)

	open := func(name string) *daemontest.Reply {
		start := time.Now()
		defer func() { t.Logf("open %q answered in %v", name, time.Since(start)) }() // measured, not asserted
		return d.Act(t, token, "c1", map[string]any{"action": "open", "app": name})
	}
	wantRefused(t, open("No Such App"), messages.CodeAppNotFound, `No installed app is named "No Such App"`)
	r := open("TWIN")
	wantRefused(t, r, messages.CodeAppAmbiguous, "Twin (org.example.TwinA), twin (org.example.TwinB)")
	if n := strings.Count(r.Error.Message, ". "); n != 0 {
		t.Fatalf("the refusal is not one sentence: %q", r.Error.Message)
	}
	if p := appRequests(t, d); len(p) != 0 {
		t.Fatalf("a refused name raised cards: %+v", p)
	}

	wantRefused(t, open("calculator"), messages.CodeApprovalRequired, "whether you may use "+calcID)
	p := appRequests(t, d)
	if len(p) != 1 || p[0].App != calcID || p[0].AppName != "Calculator" || p[0].Site != "app:"+calcID || p[0].Agent != "ada" {
		t.Fatalf("the card is %+v; want one for ada naming Calculator as %s", p, calcID)
	}
	if pids := desk.Running("gnome-calculator"); len(pids) != 0 {
		t.Fatalf("the calculator runs (%v) before the owner answered", pids)
	}

	decide(t, d, "c1", messages.DecideOnce)
	r = open("Calculator")
	if !r.OK {
		t.Fatalf("open by name after Once: %s: %s", r.Code(), r.Error.Message)
	}
	if !strings.Contains(string(r.Result), calcID) {
		t.Fatalf("the open says %s; want it to name %s", r.Result, calcID)
	}
	if pids := desk.Running("gnome-calculator"); len(pids) == 0 {
		t.Fatal("after the open by name no calculator runs")
	}
}
