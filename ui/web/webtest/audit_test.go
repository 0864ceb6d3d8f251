package webtest_test

import (
	"testing"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/web/webtest"
)

// Settings → Audit trail lists the agents' acts and the owner's controls,
// newest first, and narrows to one conversation; no filled value shows.
func TestSettingsListTheAuditTrail(t *testing.T) {
	o := start(t, daemon.Options{})
	p := o.Page(t, 1280, 900)
	o.SignIn(t, p)
	tok := agent(t, o, "ada", "c1")
	agent(t, o, "bob", "c2")
	navigate(t, o, tok, "c1", 1)
	o.Must(t, "POST", "/api/browser/takeover", messages.OwnerBody{Conversation: "c1"})
	goTo(t, o, p, "#/settings/audit")
	list := p.Locator("ul[data-audit]")
	webtest.Visible(t, list.Locator(`li[data-action=navigate]`, pw.LocatorLocatorOptions{HasText: "ada · c1"}))
	webtest.Visible(t, list.Locator(`li[data-kind=control][data-action=take_over]`, pw.LocatorLocatorOptions{HasText: "c1"}))
	webtest.Visible(t, list.Locator(`li[data-action=start_task]`, pw.LocatorLocatorOptions{HasText: "bob · c2"}))
	first, err := list.Locator("li").First().GetAttribute("data-action")
	if err != nil || first != "take_over" {
		t.Fatalf("the first line is %q (%v), want the newest, the take-over", first, err)
	}
	webtest.Screenshot(t, p, "desktop-settings-audit")

	if err := p.Locator(`input[name=conversation]`).Fill("c2"); err != nil {
		t.Fatal(err)
	}
	webtest.Click(t, p.Locator("form.filters button"))
	webtest.Gone(t, list.Locator(`li[data-action=navigate]`))
	webtest.Visible(t, list.Locator(`li[data-action=start_task]`, pw.LocatorLocatorOptions{HasText: "bob · c2"}))
}
