package webtest_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/ui/web/webtest"
)

// The one end-to-end path with the agents' real Chromium: the Host browser
// page shows a real page's picture, and Privacy & Safety lists the login
// that page left and signs it out.
func TestWithTheAgentsRealBrowserTheDashboardShowsThePageAndItsLogin(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Add("Set-Cookie", "sid=signed-in; Max-Age=3600; Path=/")
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<!doctype html><title>Account</title><h1>Your account</h1>
<form><label>Password <input type="password" value="hunter2-not-shown"></label></form>`))
	}))
	defer site.Close()
	o := start(t, daemon.Options{Config: config.Config{Driver: "playwright",
		Egress: egress.Config{PreviewOrigins: []string{site.URL}}}})
	p := o.Page(t, 1280, 900)
	o.SignIn(t, p)
	tok := agent(t, o, "ada", "c1")
	if r := o.Act(t, tok, "c1", in{"action": "navigate", "url": site.URL + "/account"}); !r.OK {
		t.Fatalf("navigate: %s: %s", r.Code(), r.Error.Message)
	}
	c := card(p, "c1")
	webtest.Visible(t, c.Locator(".url", pw.LocatorLocatorOptions{HasText: site.URL + "/account"}))
	webtest.Visible(t, c.Locator("img.shot"))
	webtest.Visible(t, c.Locator(".caption", pw.LocatorLocatorOptions{HasText: "Captured"}))
	webtest.Screenshot(t, p, "desktop-browser-real-chromium")

	goTo(t, o, p, "#/settings/privacy")
	row := p.Locator("li", pw.PageLocatorOptions{HasText: "127.0.0.1 (1 cookie)"})
	webtest.Visible(t, row)
	webtest.Click(t, row.Locator("button", pw.LocatorLocatorOptions{HasText: "Sign out"}))
	webtest.Visible(t, p.Locator(".empty", pw.PageLocatorOptions{HasText: "No site holds a login"}))
}
