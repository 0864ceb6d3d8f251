package webtest_test

import (
	"encoding/json"
	"strings"
	"testing"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/web/webtest"
)

// Settings → Secrets on a phone: the owner adds a secret, which is listed
// by name and origin and reaches the agent's secret_list without its
// value (the page never shows it again); an origin with a path is refused
// with a sentence; a removed secret leaves the agent's list.
func TestTheOwnerAddsAndRemovesASecretOnTheDashboard(t *testing.T) {
	o := start(t, daemon.Options{})
	p := o.Page(t, 375, 812)
	o.SignIn(t, p)
	tok := agent(t, o, "ada", "c1")
	const value = "correct-horse-battery-staple"
	goTo(t, o, p, "#/settings/secrets")
	webtest.Visible(t, p.Locator(".empty", pw.PageLocatorOptions{HasText: "No secret yet"}))

	add := func(name, origins string) {
		t.Helper()
		for field, v := range map[string]string{"name": name, "origins": origins, "value": value} {
			if err := p.Locator(".secret-form input[name=" + field + "]").Fill(v); err != nil {
				t.Fatal(err)
			}
		}
		webtest.Click(t, p.Locator(".secret-form button[type=submit]"))
	}
	add("site-pw", "https://Example.com:443 https://sim.localhost")
	row := p.Locator(`li[data-secret="site-pw"]`)
	webtest.Visible(t, row.Locator("span", pw.LocatorLocatorOptions{HasText: "for https://example.com, https://sim.localhost"}))
	if v, err := p.Locator(".secret-form input[name=value]").InputValue(); err != nil || v != "" {
		t.Fatalf("the value field still holds %q (%v) after the secret was added", v, err)
	}
	if html, err := p.Content(); err != nil || strings.Contains(html, value) {
		t.Fatalf("the page shows the secret's value (or could not be read: %v)", err)
	}
	webtest.Screenshot(t, p, "phone-settings-secrets")

	listed := func() messages.SecretList {
		t.Helper()
		r := o.Act(t, tok, "c1", map[string]any{"action": "secret_list"})
		if !r.OK {
			t.Fatalf("secret_list: %s: %s", r.Code(), r.Error.Message)
		}
		if strings.Contains(string(r.Result), value) {
			t.Fatal("secret_list carries the secret's value")
		}
		var l messages.SecretList
		if err := json.Unmarshal(r.Result, &l); err != nil {
			t.Fatal(err)
		}
		return l
	}
	if l := listed(); len(l.Secrets) != 1 || l.Secrets[0].Name != "site-pw" || len(l.Secrets[0].Origins) != 2 {
		t.Fatalf("the agent's secret_list is %+v, want site-pw for two origins", l.Secrets)
	}

	add("bad", "https://example.com/login")
	bad := p.Locator(".said.bad").First()
	webtest.Visible(t, bad)
	if text, _ := bad.TextContent(); !strings.HasSuffix(strings.TrimSpace(text), ".") || strings.Count(text, ". ") > 1 {
		t.Fatalf("the refusal is not one sentence: %q", text)
	}
	webtest.Gone(t, p.Locator(`li[data-secret="bad"]`))

	webtest.Click(t, row.Locator("button", pw.LocatorLocatorOptions{HasText: "Remove"}))
	webtest.Gone(t, row)
	webtest.Visible(t, p.Locator(".empty", pw.PageLocatorOptions{HasText: "No secret yet"}))
	if l := listed(); len(l.Secrets) != 0 {
		t.Fatalf("after the removal the agent's secret_list is %+v, want none", l.Secrets)
	}
}
