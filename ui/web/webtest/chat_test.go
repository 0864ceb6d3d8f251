package webtest_test

import (
	"strings"
	"testing"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/ui/web/webtest"
)

func TestTheBrowserTabIsPinnedWhileTheSessionLivesThenBecomesHistory(t *testing.T) {
	o := start(t, daemon.Options{})
	p := o.Page(t, 1280, 900)
	o.SignIn(t, p)
	tok := agent(t, o, "ada", "c1")
	navigate(t, o, tok, "c1", 2)
	goTo(t, o, p, "#/chat/ada/c1?tab=browser")

	tab := p.Locator(`.tab[data-tab="browser"]`)
	webtest.Visible(t, p.Locator(`.tab[data-tab="browser"][data-pinned="true"]`))
	if n, _ := tab.Locator("button.x").Count(); n != 0 {
		t.Fatal("the live Browser tab can be closed from the strip")
	}
	if strings.Contains(p.URL(), "tab=browser") {
		t.Fatalf("?tab=browser stayed in the address after it was honoured: %s", p.URL())
	}
	webtest.Visible(t, p.Locator(".panel article.session .badge", pw.PageLocatorOptions{HasText: "Ready"}))

	o.Observe(t, tok, "c1")
	navigate(t, o, tok, "c1", 3)
	webtest.Visible(t, p.Locator(".timeline .fold-btn", pw.PageLocatorOptions{HasText: "Browser · 3 actions"}))
	if n, _ := p.Locator(".timeline .fold-btn").Count(); n != 1 {
		t.Fatalf("the timeline has %d rows of browser calls, want the three folded into one", n)
	}

	// A failed call is not pinned: it marks the overflow menu instead.
	if r := o.Act(t, tok, "c1", in{"action": "wait_for", "wait": in{"text": "never on this page"}, "timeoutMs": 50}); r.OK {
		t.Fatal("wait_for for text that is not there succeeded")
	}
	webtest.Visible(t, p.Locator(".timeline .failed", pw.PageLocatorOptions{HasText: "wait_for failed"}))
	webtest.Visible(t, p.Locator(".more .dot"))
	if n, _ := p.Locator(`.tab[data-tab="failure"]`).Count(); n != 0 {
		t.Fatal("a failed call opened a tab of its own on the strip")
	}
	webtest.Screenshot(t, p, "desktop-chat-live")
	webtest.Click(t, p.Locator("button.more"))
	webtest.Click(t, p.Locator(".overflow-menu button.failed"))
	webtest.Visible(t, p.Locator(".panel .failure h3", pw.PageLocatorOptions{HasText: "wait_for failed"}))
	webtest.Gone(t, p.Locator(".more .dot"))

	// Released: the tab is ordinary history with its last picture.
	webtest.Click(t, p.Locator(`.tab[data-tab="browser"] button[role="tab"]`))
	webtest.Visible(t, p.Locator(".panel img.shot"))
	webtest.Click(t, p.Locator(".panel button", pw.PageLocatorOptions{HasText: "Close & release"}))
	webtest.Visible(t, p.Locator(`.tab[data-tab="browser"][data-pinned="false"] button.x`))
	webtest.Visible(t, p.Locator(".panel .ended"))
	webtest.Visible(t, p.Locator(".panel img.shot"))
	webtest.Screenshot(t, p, "desktop-chat-history")
	webtest.Click(t, p.Locator(`.tab[data-tab="browser"] button.x`))
	webtest.Gone(t, p.Locator(`.tab[data-tab="browser"]`))
}

func TestThePanelOpensItselfWhenTheAgentNavigates(t *testing.T) {
	o := start(t, daemon.Options{})
	p := o.Page(t, 375, 812)
	o.SignIn(t, p)
	tok := agent(t, o, "ada", "c1")
	o.Observe(t, tok, "c1")
	goTo(t, o, p, "#/chat/ada/c1")
	webtest.Visible(t, p.Locator(".timeline .fold-btn"))
	if v, _ := p.Locator(".canvas").IsVisible(); v {
		t.Fatal("on a phone the canvas is open before anything asked for it")
	}
	navigate(t, o, tok, "c1", 4)
	webtest.Visible(t, p.Locator(".chat.open .canvas .panel article.session"))
	webtest.Screenshot(t, p, "phone-chat-opened-itself")
}

func TestAnEmptyBrowserTabOpensABrowserOfTheOwnersOwn(t *testing.T) {
	o := start(t, daemon.Options{})
	p := o.Page(t, 1280, 900)
	o.SignIn(t, p)
	o.AddAgent(t, "ada", false)
	goTo(t, o, p, "#/chat/ada/c9?tab=browser")
	webtest.Visible(t, p.Locator(".panel .empty", pw.PageLocatorOptions{HasText: "No browser in this conversation yet"}))
	webtest.Click(t, p.Locator(".panel button", pw.PageLocatorOptions{HasText: "Open a browser"}))
	if err := p.Locator(".panel input[name=url]").Fill("https://sim.localhost/p/5"); err != nil {
		t.Fatal(err)
	}
	webtest.Click(t, p.Locator(".panel button[type=submit]"))
	webtest.Visible(t, p.Locator(".chat-head h1", pw.PageLocatorOptions{HasText: "owner · owner-"}))
	webtest.Visible(t, p.Locator(`.tab[data-tab="browser"][data-pinned="true"]`))
	webtest.Visible(t, p.Locator(".panel .url", pw.PageLocatorOptions{HasText: "https://sim.localhost/p/5"}))

	// The owner's browser obeys the same rules as an agent's.
	if err := p.Locator(".panel .address input[name=url]").Fill("http://10.0.0.1/admin"); err != nil {
		t.Fatal(err)
	}
	webtest.Click(t, p.Locator(".panel .address button[type=submit]"))
	webtest.Visible(t, p.Locator(".panel .address .said.bad", pw.PageLocatorOptions{HasText: "private"}))
	webtest.Screenshot(t, p, "desktop-chat-owner-browser")
}
