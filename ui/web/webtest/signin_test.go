package webtest_test

import (
	"bytes"
	"regexp"
	"testing"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/ui/web/webtest"
)

func TestSignInWithTheLinkServePrints(t *testing.T) {
	var out bytes.Buffer
	o := start(t, daemon.Options{Out: &out, Terminal: true})
	link := regexp.MustCompile(`Sign in to the dashboard: (\S+)`).FindStringSubmatch(out.String())
	if link == nil {
		t.Fatalf("serve printed no sign-in link:\n%s", out.String())
	}
	p := o.Page(t, 1280, 800)
	if _, err := p.Goto(link[1]); err != nil {
		t.Fatal(err)
	}
	webtest.Visible(t, p.Locator("h1", pw.PageLocatorOptions{HasText: "Host browser"}))
	if u := p.URL(); regexp.MustCompile(`signin`).MatchString(u) {
		t.Fatalf("the token stayed in the address bar: %s", u)
	}
	cookies, err := p.Context().Cookies()
	if err != nil || len(cookies) != 1 {
		t.Fatalf("cookies %+v (%v), want the one session cookie", cookies, err)
	}
	c := cookies[0]
	if c.Name != "buddi_session" || !c.HttpOnly || c.SameSite == nil || *c.SameSite != *pw.SameSiteAttributeStrict || c.Secure {
		t.Fatalf("cookie %+v, want buddi_session, HttpOnly, SameSite=Strict, not Secure over http", c)
	}
	webtest.Screenshot(t, p, "desktop-browser-empty")

	again := o.Page(t, 1280, 800)
	if _, err := again.Goto(link[1]); err != nil {
		t.Fatal(err)
	}
	webtest.Visible(t, again.Locator(".signin .said.bad", pw.PageLocatorOptions{HasText: "not valid"}))
	webtest.Screenshot(t, again, "desktop-signin-spent-link")

	// Sign out from the devices list: the page goes back to the sign-in page.
	goTo(t, o, p, "#/settings/devices")
	webtest.Visible(t, p.Locator("li", pw.PageLocatorOptions{HasText: "(this browser)"}))
	webtest.Click(t, p.Locator("li", pw.PageLocatorOptions{HasText: "(this browser)"}).Locator("button", pw.LocatorLocatorOptions{HasText: "Sign out this device"}))
	webtest.Visible(t, p.Locator("h1", pw.PageLocatorOptions{HasText: "Sign in to buddi"}))
}
