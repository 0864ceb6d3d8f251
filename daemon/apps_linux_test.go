//go:build linux

package daemon_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/playwright/browsertest"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/native/linux/linuxtest"
)

// linuxDesktop starts a private Linux desktop with its accessibility bus
// for the test (skipping it where those are not installed), and builds the
// Linux helper, whose path it returns.
func linuxDesktop(t *testing.T) string {
	t.Helper()
	helper, _ := linuxDesktopOf(t)
	return helper
}

// linuxDesktopOf is linuxDesktop, with the desktop itself.
func linuxDesktopOf(t *testing.T) (string, *linuxtest.Desktop) {
	t.Helper()
	for _, p := range []string{"Xvfb", "dbus-daemon", "gnome-calculator"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed, so the desktop test cannot run; run scripts/testdeps.sh", p)
		}
	}
	if _, err := os.Stat("/usr/share/dbus-1/services/org.a11y.Bus.service"); err != nil {
		t.Skip("the accessibility bus (at-spi2-core) is not installed, so the desktop test cannot run; run scripts/testdeps.sh")
	}
	helper := filepath.Join(t.TempDir(), "buddi-computer-linux")
	if out, err := exec.Command("go", "build", "-o", helper, "../native/linux/cmd/buddi-computer-linux").CombinedOutput(); err != nil {
		t.Fatalf("building the helper: %v\n%s", err, out)
	}
	desk := linuxtest.Start(t)
	for _, kv := range desk.Env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	return helper, desk
}

// settingsDir is a data directory whose settings.json holds settings.
func settingsDir(t *testing.T, settings map[string]any) string {
	t.Helper()
	dir := browsertest.TempDir(t)
	raw, _ := json.Marshal(settings)
	if err := os.MkdirAll(filepath.Join(dir, "browser"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "browser", "settings.json"), raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// computerDaemon starts buddi in Use my apps on a private Linux desktop,
// with settings.json holding allowed as its allowed apps, and with options
// changed by each of with.
func computerDaemon(t *testing.T, allowed []string, with ...func(*daemon.Options)) (*daemontest.Daemon, daemon.Options, string) {
	t.Helper()
	d, o, dir, _ := computerDesktop(t, allowed, with...)
	return d, o, dir
}

// computerDesktop is computerDaemon, with the desktop it runs on.
func computerDesktop(t *testing.T, allowed []string, with ...func(*daemon.Options)) (*daemontest.Daemon, daemon.Options, string, *linuxtest.Desktop) {
	t.Helper()
	helper, desk := linuxDesktopOf(t)
	dir := settingsDir(t, map[string]any{"mode": "computer", "allowedApps": allowed})
	var o daemon.Options
	o.Config.ComputerHelper = helper
	for _, f := range with {
		f(&o)
	}
	d := daemontest.Start(t, dir, o)
	if s := browserSettings(t, d); s.Mode != "computer" {
		t.Fatalf("the stored computer mode reads as %s", s.Mode)
	}
	return d, o, dir, desk
}

const calcID = "org.gnome.Calculator"

var openCalc = map[string]any{"action": "open", "appId": calcID}

// appRequests is the waiting requests about apps.
func appRequests(t *testing.T, d *daemontest.Daemon) []messages.SiteRequest {
	t.Helper()
	var all []messages.SiteRequest
	if err := d.Must(t, "GET", "/api/approvals", nil).Decode(&all); err != nil {
		t.Fatal(err)
	}
	var apps []messages.SiteRequest
	for _, r := range all {
		if r.App != "" {
			apps = append(apps, r)
		}
	}
	return apps
}

func decide(t *testing.T, d *daemontest.Daemon, conv, decision string) messages.SiteDecision {
	t.Helper()
	var out messages.SiteDecision
	if err := d.Must(t, "POST", "/api/approvals", map[string]any{"conversation": conv, "site": "app:" + calcID, "decision": decision}).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

func wantRefused(t *testing.T, r *daemontest.Reply, code messages.Code, words string) {
	t.Helper()
	if r.OK || r.Code() != code || !strings.Contains(r.Error.Message, words) {
		t.Fatalf("got %+v; want %s saying %q", r.Raw, code, words)
	}
}

// TestUnlistedAppIsCarded: an app off the list raises one card naming the
// agent and the app's id; Once opens it in that conversation only, also
// under its next task; Reject refuses the next open there by the app's
// name with no second card, also after a restart and under the
// conversation's next task; and Always adds it to settings.json so it
// opens everywhere.
func TestUnlistedAppIsCarded(t *testing.T) {
	d, o, dir := computerDaemon(t, []string{})
	token := d.AddAgent(t, "ada", true)

	d.Task(t, "ada", "c1", 40)
	wantRefused(t, d.Act(t, token, "c1", openCalc), messages.CodeApprovalRequired, "asked the owner whether you may use "+calcID)
	wantRefused(t, d.Act(t, token, "c1", openCalc), messages.CodeApprovalRequired, "already asked")
	if p := appRequests(t, d); len(p) != 1 || p[0].Agent != "ada" || p[0].App != calcID || p[0].Conversation != "c1" {
		t.Fatalf("the waiting app requests are %+v; want one card for ada and %s", p, calcID)
	}
	if got := decide(t, d, "c1", messages.DecideOnce); got.Decision != messages.DecideOnce {
		t.Fatalf("Once was taken as %+v", got)
	}
	if r := d.Act(t, token, "c1", openCalc); !r.OK {
		t.Fatalf("open after Once: %s: %s", r.Code(), r.Error.Message)
	}
	d.Must(t, "POST", "/api/browser/release", map[string]any{"conversation": "c1"})
	d.Task(t, "ada", "c1", 40)
	if r := d.Act(t, token, "c1", openCalc); !r.OK {
		t.Fatalf("open under the conversation's next task after Once: %s: %s", r.Code(), r.Error.Message)
	}
	d.Must(t, "POST", "/api/browser/release", map[string]any{"conversation": "c1"})

	openByName := map[string]any{"action": "open", "app": "Calculator"}
	d.Task(t, "ada", "c2", 40)
	wantRefused(t, d.Act(t, token, "c2", openByName), messages.CodeApprovalRequired, "asked the owner")
	decide(t, d, "c2", messages.DecideReject)
	const said = "The owner said no to Calculator in this conversation"
	wantRefused(t, d.Act(t, token, "c2", openCalc), messages.CodeNotApproved, said)
	if p := appRequests(t, d); len(p) != 0 {
		t.Fatalf("after Reject the next open raised %+v", p)
	}
	d.Stop(t)
	d = daemontest.Start(t, dir, o)
	wantRefused(t, d.Act(t, token, "c2", openCalc), messages.CodeNotApproved, said)
	if p := appRequests(t, d); len(p) != 0 {
		t.Fatalf("after a restart the rejected open raised %+v", p)
	}
	d.Must(t, "POST", "/api/browser/release", map[string]any{"conversation": "c2"})
	d.Task(t, "ada", "c2", 40)
	wantRefused(t, d.Act(t, token, "c2", openByName), messages.CodeNotApproved, said)
	if p := appRequests(t, d); len(p) != 0 {
		t.Fatalf("under the conversation's next task the rejected open raised %+v", p)
	}
	d.Must(t, "POST", "/api/browser/release", map[string]any{"conversation": "c2"})

	d.Task(t, "ada", "c3", 40)
	wantRefused(t, d.Act(t, token, "c3", openCalc), messages.CodeApprovalRequired, "asked the owner")
	if got := decide(t, d, "c3", messages.DecideAlways); got.Decision != messages.DecideAlways {
		t.Fatalf("Always was taken as %+v", got)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "browser", "settings.json"))
	if !strings.Contains(string(raw), calcID) {
		t.Fatalf("settings.json after Always: %s", raw)
	}
	if r := d.Act(t, token, "c3", openCalc); !r.OK {
		t.Fatalf("open after Always: %s: %s", r.Code(), r.Error.Message)
	}
	d.Must(t, "POST", "/api/browser/release", map[string]any{"conversation": "c3"})
	d.Task(t, "ada", "c4", 40)
	if r := d.Act(t, token, "c4", openCalc); !r.OK {
		t.Fatalf("open of an always-allowed app in another conversation: %s: %s", r.Code(), r.Error.Message)
	}

	// Take over in this mode is at the computer.
	var info messages.SessionInfo
	if err := d.Must(t, "POST", "/api/browser/takeover", map[string]any{"conversation": "c4"}).Decode(&info); err != nil {
		t.Fatal(err)
	}
	if !info.Computer || info.State != "taken_over" {
		t.Fatalf("the taken-over session reads %+v; want it marked as the computer's", info)
	}
	wantRefused(t, d.Act(t, token, "c4", map[string]any{"action": "observe"}), messages.CodeTakenOver, "taken over at the computer")
}

// TestAlwaysOnAFullListCountsAsOnce: with 32 apps allowed, Always on a
// 33rd leaves the list as it is and lets the app open in that conversation.
func TestAlwaysOnAFullListCountsAsOnce(t *testing.T) {
	full := make([]string, 32)
	for i := range full {
		full[i] = fmt.Sprintf("org.example.App%d", i)
	}
	d, _, dir := computerDaemon(t, full)
	path := filepath.Join(dir, "browser", "settings.json")
	before, _ := os.ReadFile(path)
	token := d.AddAgent(t, "ada", true)
	d.Task(t, "ada", "c1", 40)
	wantRefused(t, d.Act(t, token, "c1", openCalc), messages.CodeApprovalRequired, "asked the owner")
	if got := decide(t, d, "c1", messages.DecideAlways); got.Decision != messages.DecideOnce {
		t.Fatalf("Always on a full list was taken as %+v; want once", got)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatalf("settings.json changed on a full list:\n%s", after)
	}
	if r := d.Act(t, token, "c1", openCalc); !r.OK {
		t.Fatalf("open after Always-as-Once: %s: %s", r.Code(), r.Error.Message)
	}
}

// TestATakeOverAtTheComputerKeepsTheLock: while the owner has the
// conversation that holds the computer taken over, its lease does not run
// out and another conversation is refused; given back, the lease runs
// again and, with no call, another conversation gets the computer.
func TestATakeOverAtTheComputerKeepsTheLock(t *testing.T) {
	const lease = 2 * time.Second
	d, _, _ := computerDaemon(t, []string{calcID}, func(o *daemon.Options) { o.DesktopLease = lease })
	token := d.AddAgent(t, "ada", true)
	d.Task(t, "ada", "c1", 40)
	d.Task(t, "ada", "c2", 40)
	if r := d.Act(t, token, "c1", openCalc); !r.OK {
		t.Fatalf("open in c1: %s: %s", r.Code(), r.Error.Message)
	}
	d.Must(t, "POST", "/api/browser/takeover", map[string]any{"conversation": "c1"})
	d.WaitSession(t, "c1", messages.StateTakenOver)
	time.Sleep(lease + time.Second) // longer than the lease, without a call
	wantRefused(t, d.Act(t, token, "c2", openCalc), messages.CodeNotAllowed, "Another conversation controls the computer")
	d.Must(t, "POST", "/api/browser/resume", map[string]any{"conversation": "c1"})
	d.WaitSession(t, "c1", messages.StateReady)
	time.Sleep(lease + time.Second)
	if r := d.Act(t, token, "c2", openCalc); !r.OK {
		t.Fatalf("open in c2 after c1's lease ran out: %s: %s", r.Code(), r.Error.Message)
	}
}
