package daemon_test

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/playwright/browsertest"
	"github.com/buddi-dev/buddi/messages"
)

// browserSettings reads the owner's settings page.
func browserSettings(t *testing.T, d *daemontest.Daemon) messages.BrowserSettings {
	t.Helper()
	var s messages.BrowserSettings
	if err := d.Must(t, "GET", "/api/settings/browser", nil).Decode(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

func modeChoice(s messages.BrowserSettings, name string) messages.ModeChoice {
	for _, c := range s.Modes {
		if c.Name == name {
			return c
		}
	}
	return messages.ModeChoice{}
}

// TestStoredComputerWithoutHelperRunsTheConfiguredMode: a settings.json
// that chose Use my apps, on a host without the helper, starts the
// configured mode, says why Use my apps is not available, refuses a switch
// to it, and leaves the file as written.
func TestStoredComputerWithoutHelperRunsTheConfiguredMode(t *testing.T) {
	dir := browsertest.TempDir(t)
	path := filepath.Join(dir, "browser", "settings.json")
	written := []byte(`{"mode":"computer","browserApp":"com.google.Chrome","allowedApps":["com.apple.calculator"]}` + "\n")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, written, 0o600); err != nil {
		t.Fatal(err)
	}
	var o daemon.Options
	o.Config.ComputerHelper = filepath.Join(dir, "no-such-helper")
	d := daemontest.Start(t, dir, o)

	s := browserSettings(t, d)
	if s.Mode == "computer" {
		t.Fatal("the mode reads as computer without a helper")
	}
	c := modeChoice(s, "computer")
	if c.Available || !strings.Contains(c.Why, "helper") {
		t.Fatalf("the computer choice reads %+v; want not available, naming the helper", c)
	}
	r, err := d.Do("POST", "/api/settings/browser", d.Owner, map[string]any{"mode": "computer"})
	if err != nil || r.Code() != messages.CodeNotAvailable {
		t.Fatalf("switching to computer gave %v %v; want not_available", r, err)
	}
	d.Stop(t)
	if got, _ := os.ReadFile(path); !bytes.Equal(got, written) {
		t.Fatalf("settings.json now reads %s; want it as written", got)
	}
}

// TestTooManyAllowedAppsIsRefusedAtStart: a list of more than 32 apps is
// not read as some other list.
func TestTooManyAllowedAppsIsRefusedAtStart(t *testing.T) {
	dir := browsertest.TempDir(t)
	path := filepath.Join(dir, "browser", "settings.json")
	apps := make([]string, 33)
	for i := range apps {
		apps[i] = `"app` + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `"`
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"allowedApps":[`+strings.Join(apps, ",")+`]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	o := daemon.Options{Log: slog.New(slog.DiscardHandler)}
	o.Config.DataDir, o.Config.Addr, o.Config.Driver, o.Config.LogLevel = dir, "127.0.0.1:0", "sim", "warn"
	if err := o.Config.Validate(); err != nil {
		t.Fatal(err)
	}
	d, err := daemon.Start(o)
	if err == nil {
		_ = d.Shutdown(t.Context())
		t.Fatal("buddi started with 33 allowed apps")
	}
	if !strings.Contains(err.Error(), "33 apps, more than 32") {
		t.Fatalf("the refusal says %q", err)
	}
}

// TestOwnerSetsTheAppsOfUseMyApps: the owner's settings carry the browser
// app and the allowed apps (Chrome selected, Chrome and another browser to
// begin with), a list of 33 or an id that is not one is refused, a good
// list is saved without repeats, and an agent's token cannot change it.
func TestOwnerSetsTheAppsOfUseMyApps(t *testing.T) {
	d := daemontest.Start(t, "", daemon.Options{})
	s := browserSettings(t, d)
	if s.BrowserApp == "" || len(s.AllowedApps) != 2 || s.AllowedApps[0] != s.BrowserApp {
		t.Fatalf("a new install's apps: browser %q, allowed %v", s.BrowserApp, s.AllowedApps)
	}
	many := make([]string, 33)
	for i := range many {
		many[i] = "org.example.App" + strings.Repeat("x", i+1)
	}
	r, err := d.Do("POST", "/api/settings/browser", d.Owner, map[string]any{"allowedApps": many})
	if err != nil || r.Code() != messages.CodeBadInput || !strings.Contains(r.Error.Message, "33 apps") {
		t.Fatalf("33 apps: %+v %v", r, err)
	}
	r, err = d.Do("POST", "/api/settings/browser", d.Owner, map[string]any{"allowedApps": []string{"not an id!"}})
	if err != nil || r.Code() != messages.CodeBadInput {
		t.Fatalf("a bad id: %+v %v", r, err)
	}
	d.Must(t, "POST", "/api/settings/browser", map[string]any{"browserApp": "org.mozilla.firefox",
		"allowedApps": []string{"org.mozilla.firefox", "org.gnome.Calculator", "org.gnome.Calculator"}})
	s = browserSettings(t, d)
	if s.BrowserApp != "org.mozilla.firefox" || len(s.AllowedApps) != 2 || s.AllowedApps[1] != "org.gnome.Calculator" {
		t.Fatalf("after the change: browser %q, allowed %v", s.BrowserApp, s.AllowedApps)
	}
	raw, _ := os.ReadFile(filepath.Join(d.Dir, "browser", "settings.json"))
	if !strings.Contains(string(raw), `"allowedApps"`) || !strings.Contains(string(raw), "org.mozilla.firefox") {
		t.Fatalf("settings.json: %s", raw)
	}
	token := d.AddAgent(t, "ada", true)
	if r, err := d.Do("POST", "/api/settings/browser", token, map[string]any{"allowedApps": []string{"x.y"}}); err != nil || r.OK {
		t.Fatalf("an agent changed the allowed apps: %+v %v", r, err)
	}
}
