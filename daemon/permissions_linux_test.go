//go:build linux

package daemon_test

import (
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/messages"
)

func permissions(t *testing.T, d *daemontest.Daemon, method string) messages.Permissions {
	t.Helper()
	var p messages.Permissions
	if err := d.Must(t, method, "/api/computer/permissions", nil).Decode(&p); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestComputerPermissions: the owner checks Use my apps' permissions
// through the API, `buddi computer permissions` and the doctor's row, all
// from the real helper's probe on a Linux desktop; a request is refused
// with sessions_open while a session is open and answered once it is
// released.
func TestComputerPermissions(t *testing.T) {
	var d *daemontest.Daemon
	run := buddiCLI(t, func() *daemontest.Daemon { return d })
	d, _, _ = computerDaemon(t, []string{calcID})

	p := permissions(t, d, "GET")
	names := map[string]bool{}
	for _, c := range p.Checks {
		names[c.Name] = c.OK
	}
	if !p.Ready || p.Platform != "linux-x11" || !names["accessibility"] || !names["display"] || !strings.Contains(p.Text, "everything") {
		t.Fatalf("the probe reads %+v; want every check passed", p)
	}
	var rows messages.DoctorRows
	if err := d.Must(t, "GET", "/api/doctor", nil).Decode(&rows); err != nil {
		t.Fatal(err)
	}
	if !hasRow(rows, "use my apps", "OK", "everything") {
		t.Fatalf("the doctor's rows %+v have no OK row for Use my apps", rows)
	}
	if code, out, errs := run("computer", "permissions"); code != 0 || !strings.Contains(out, "accessibility") || !strings.Contains(out, "everything Use my apps needs") {
		t.Fatalf("buddi computer permissions: exit %d\n%s%s", code, out, errs)
	}
	if code, out, _ := run("computer", "--help"); code != 0 || !strings.Contains(out, "-request") {
		t.Fatalf("buddi computer --help: exit %d\n%s", code, out)
	}
	if code, _, errs := run("computer", "grant"); code != 2 || !strings.Contains(errs, "expected `permissions`") {
		t.Fatalf("buddi computer grant: exit %d\n%s", code, errs)
	}

	token := d.AddAgent(t, "ada", true)
	d.Task(t, "ada", "c1", 40)
	if r := d.Act(t, token, "c1", openCalc); !r.OK {
		t.Fatalf("open: %s: %s", r.Code(), r.Error.Message)
	}
	r, err := d.Do("POST", "/api/computer/permissions", d.Owner, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantRefused(t, r, messages.CodeSessionsOpen, "release the 1 open session first")
	if code, _, errs := run("computer", "permissions", "--request"); code != 1 || !strings.Contains(errs, "(sessions_open)") {
		t.Fatalf("buddi computer permissions --request with a session open: exit %d\n%s", code, errs)
	}
	d.Must(t, "POST", "/api/browser/release", map[string]any{"conversation": "c1"})
	if p := permissions(t, d, "POST"); !p.Ready {
		t.Fatalf("the request with no session open reads %+v", p)
	}
	if code, out, errs := run("computer", "permissions", "--request"); code != 0 || !strings.Contains(out, "everything") {
		t.Fatalf("buddi computer permissions --request: exit %d\n%s%s", code, out, errs)
	}
}

func hasRow(rows messages.DoctorRows, name, level, words string) bool {
	for _, r := range rows {
		if r.Name == name && r.Level == level && strings.Contains(r.Text, words) {
			return true
		}
	}
	return false
}
