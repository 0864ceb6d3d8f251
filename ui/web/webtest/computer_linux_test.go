//go:build linux

package webtest_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/playwright/browsertest"
	"github.com/buddi-dev/buddi/native/linux/linuxtest"
	"github.com/buddi-dev/buddi/ui/web/webtest"
)

// TestTheCanvasTabReadsComputerInUseMyApps: in Use my apps, on a private
// Linux desktop, a conversation's live canvas tab is named for what the
// session drives, the computer, not a browser.
func TestTheCanvasTabReadsComputerInUseMyApps(t *testing.T) {
	for _, p := range []string{"Xvfb", "dbus-daemon", "gnome-calculator"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed, so the desktop test cannot run; run scripts/testdeps.sh", p)
		}
	}
	helper := filepath.Join(t.TempDir(), "buddi-computer-linux")
	if out, err := exec.Command("go", "build", "-o", helper, "../../../native/linux/cmd/buddi-computer-linux").CombinedOutput(); err != nil {
		t.Fatalf("building the helper: %v\n%s", err, out)
	}
	desk := linuxtest.Start(t)
	for _, kv := range desk.Env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	dir := browsertest.TempDir(t)
	raw, _ := json.Marshal(map[string]any{"mode": "computer", "allowedApps": []string{"org.gnome.Calculator"}})
	if err := os.MkdirAll(filepath.Join(dir, "browser"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "browser", "settings.json"), raw, 0o600); err != nil {
		t.Fatal(err)
	}
	var o daemon.Options
	o.Config.ComputerHelper = helper
	d := daemontest.Start(t, dir, o)
	own := &owner{Daemon: d, Dashboard: webtest.Open(t, d)}
	p := own.Page(t, 1280, 900)
	own.SignIn(t, p)
	tok := agent(t, own, "ada", "c1")
	if r := own.Act(t, tok, "c1", in{"action": "open", "appId": "org.gnome.Calculator"}); !r.OK {
		t.Fatalf("open: %s: %s", r.Code(), r.Error.Message)
	}
	goTo(t, own, p, "#/chat/ada/c1?tab=browser")
	tab := p.Locator(`.tab[data-tab="browser"][data-pinned="true"] button[role="tab"]`)
	webtest.Visible(t, tab)
	webtest.Visible(t, p.Locator(`.tab[data-tab="browser"] button[role="tab"]`, pw.PageLocatorOptions{HasText: "Computer"}))
	if got := text(t, tab); strings.Contains(got, "Browser") {
		t.Fatalf("the live tab in Use my apps reads %q", got)
	}
}
