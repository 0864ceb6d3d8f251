package webtest_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/web/webtest"
)

func TestTheModeChangesOnlyWithNoSessionOpen(t *testing.T) {
	o := start(t, daemon.Options{})
	p := o.Page(t, 1280, 900)
	o.SignIn(t, p)
	agent(t, o, "ada", "c1")
	goTo(t, o, p, "#/settings/browser")
	webtest.Visible(t, p.Locator(".modes .note", pw.PageLocatorOptions{HasText: "1 session is open now"}))
	webtest.Visible(t, p.Locator("label.unavailable", pw.PageLocatorOptions{HasText: "not available on this install yet"}))
	if ok, _ := p.Locator(`input[name=mode][value=computer]`).IsDisabled(); !ok {
		t.Fatal("Use my apps, with no computer-control helper next to this buddi, can be chosen")
	}
	webtest.Click(t, p.Locator(`input[name=mode][value=playwright]`))
	webtest.Visible(t, p.Locator(".said.bad", pw.PageLocatorOptions{HasText: "release the 1 open session first"}))
	if mode := health(t, o).Mode; mode != "sim" {
		t.Fatalf("the mode changed to %s with a session open", mode)
	}
	// The refusal is said before the choice is put back: wait for it to go.
	webtest.Gone(t, p.Locator(`input[name=mode][value=playwright]:checked`))
	if ok, _ := p.Locator(`input[name=mode][value=sim]`).IsChecked(); !ok {
		t.Fatal("the page shows the refused mode as chosen")
	}
	// Your browser is offered on every install, and refused the same way.
	webtest.Click(t, p.Locator(`input[name=mode][value=extension]`))
	webtest.Gone(t, p.Locator(`input[name=mode][value=extension]:checked`))
	if mode := health(t, o).Mode; mode != "sim" {
		t.Fatalf("the mode changed to %s with a session open", mode)
	}
	webtest.Screenshot(t, p, "desktop-settings-browser-refused")

	o.Must(t, "POST", "/api/browser/release", messages.OwnerBody{Conversation: "c1"})
	o.WaitSession(t, "c1", "")
	goTo(t, o, p, "#/settings/agents")
	goTo(t, o, p, "#/settings/browser")
	webtest.Gone(t, p.Locator(".modes .note"))
	webtest.Click(t, p.Locator(`input[name=mode][value=playwright]`))
	webtest.Visible(t, p.Locator(".said", pw.PageLocatorOptions{HasText: "The mode is now Give agents their own browser"}))
	if mode := health(t, o).Mode; mode != "playwright" {
		t.Fatalf("the mode is %s after switching to playwright", mode)
	}
	raw, err := os.ReadFile(filepath.Join(o.Dir, "browser", "settings.json"))
	var saved struct{ Mode string }
	if err != nil || json.Unmarshal(raw, &saved) != nil || saved.Mode != "playwright" {
		t.Fatalf("settings.json holds %q (%v), want the mode saved", raw, err)
	}
	if fi, err := os.Stat(filepath.Join(o.Dir, "browser", "settings.json")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("settings.json is not owner-only: %v %v", fi.Mode(), err)
	}
	webtest.Screenshot(t, p, "desktop-settings-browser")
	webtest.Click(t, p.Locator(`input[name=mode][value=sim]`))
	webtest.Visible(t, p.Locator(".said", pw.PageLocatorOptions{HasText: "The mode is now A simulated browser"}))
}

func TestPrivacyListsRevokeAndAskAgain(t *testing.T) {
	o := start(t, askOpts())
	p := o.Page(t, 1280, 900)
	o.SignIn(t, p)
	tok := agent(t, o, "ada", "c1")
	o.Act(t, tok, "c1", in{"action": "navigate", "url": shop + "/p/1"})
	o.Must(t, "POST", "/api/approvals", messages.OwnerBody{Conversation: "c1", Site: "example.com", Decision: messages.DecideAlways})
	goTo(t, o, p, "#/settings/privacy")
	row := p.Locator("li", pw.PageLocatorOptions{HasText: "example.com (always"})
	webtest.Visible(t, row.Locator("button", pw.LocatorLocatorOptions{HasText: "Revoke"}))
	webtest.Visible(t, p.Locator(".empty", pw.PageLocatorOptions{HasText: "No site holds a login"}))
	webtest.Screenshot(t, p, "desktop-settings-privacy")
	webtest.Click(t, row.Locator("button", pw.LocatorLocatorOptions{HasText: "Revoke"}))
	webtest.Visible(t, p.Locator(".empty", pw.PageLocatorOptions{HasText: "No site is approved"}))
	if r := o.Act(t, tok, "c1", in{"action": "navigate", "url": shop + "/p/2"}); r.Code() != messages.CodeApprovalRequired {
		t.Fatalf("a revoked site did not ask again: %v", r.Code())
	}
	o.Must(t, "POST", "/api/approvals", messages.OwnerBody{Conversation: "c1", Site: "example.com", Decision: messages.DecideReject})
	goTo(t, o, p, "#/settings/agents")
	goTo(t, o, p, "#/settings/privacy")
	declined := p.Locator("li", pw.PageLocatorOptions{HasText: "example.com"})
	webtest.Click(t, declined.Locator("button", pw.LocatorLocatorOptions{HasText: "Ask again"}))
	webtest.Visible(t, p.Locator(".empty", pw.PageLocatorOptions{HasText: "No site is declined"}))
	if r := o.Act(t, tok, "c1", in{"action": "navigate", "url": shop + "/p/2"}); r.Code() != messages.CodeApprovalRequired {
		t.Fatalf("after Ask again the site was not asked about: %v", r.Code())
	}
}

func TestAirGapAsksFirstAndDisablesTheBrowsingToggle(t *testing.T) {
	o := start(t, daemon.Options{})
	p := o.Page(t, 1280, 900)
	o.SignIn(t, p)
	goTo(t, o, p, "#/settings/privacy")
	p.OnDialog(func(d pw.Dialog) {
		if d.Message() == "" {
			t.Error("air-gap asked with an empty question")
		}
		_ = d.Accept()
	})
	webtest.Click(t, p.Locator("input[name=airGap]"))
	webtest.Visible(t, p.Locator(".banner-inline", pw.PageLocatorOptions{HasText: "Air-gap is on"}))
	if ok, _ := p.Locator("input[name=siteApproval]").IsDisabled(); !ok {
		t.Fatal("the site-approval toggle stays enabled under air-gap")
	}
	var st messages.BrowserSettings
	o.Must(t, "GET", "/api/settings/browser", nil).Decode(&st)
	if !st.AirGap {
		t.Fatal("air-gap is not on after the owner confirmed")
	}
	webtest.Screenshot(t, p, "desktop-settings-privacy-airgap")
}

func health(t *testing.T, o *owner) *messages.Health {
	t.Helper()
	h, err := o.API.Owner(o.Owner).Health(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestAgentsAreAddedWithTheirTokenShownOnceAndRemoved(t *testing.T) {
	o := start(t, daemon.Options{})
	p := o.Page(t, 1280, 900)
	o.SignIn(t, p)
	goTo(t, o, p, "#/settings/agents")
	if err := p.Locator("input[name=name]").Fill("zed"); err != nil {
		t.Fatal(err)
	}
	webtest.Click(t, p.Locator("button", pw.PageLocatorOptions{HasText: "Add agent"}))
	webtest.Visible(t, p.Locator("pre.token", pw.PageLocatorOptions{HasText: "ba_"}))
	token, _ := p.Locator("pre.token").TextContent()
	webtest.Visible(t, p.Locator(`li[data-agent="zed"]`, pw.PageLocatorOptions{HasText: "browser.*"}))
	if r := o.Tool(t, token, "browser.status", "z1", map[string]any{}); !r.OK {
		t.Fatalf("the shown token does not work: %s", r.Code())
	}
	webtest.Click(t, p.Locator(`li[data-agent="zed"] button`, pw.PageLocatorOptions{HasText: "Remove"}))
	webtest.Gone(t, p.Locator(`li[data-agent="zed"]`))
	if r := o.Tool(t, token, "browser.status", "z1", map[string]any{}); r.Code() != messages.CodeUnauthorized {
		t.Fatalf("the removed agent's token still works: %s", r.Code())
	}
}
