//go:build tailnet

package tailnet_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/ui/web/webtest"
)

// In a real Chromium on the host, the owner's dashboard shows the tailnet:
// the list seeded from BUDDI_TAILNET_OWNERS, a login added there (which
// then opens buddi signed in over the tailnet without a link), a login
// that is not one refused with a sentence; the device it signed in is
// listed with its tailnet login and node, and signing it out takes its
// login off the list and signs it out over the tailnet too; removing the
// seeded login leaves the list empty.
func TestTheOwnerSeesAndEditsTheTailnetOnTheDashboard(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c := control(t)
	o := daemon.Options{Mode: sim.NewMode(sim.Config{}, 1), TailnetEphemeral: true}
	o.Config.Tailnet, o.Config.TailnetControl, o.Config.TailnetHostname = true, c.HTTPTestServer.URL, "buddi"
	o.Config.TailnetOwners = []string{"seed@example.com"}
	d := daemontest.Start(t, "", o)
	if _, err := d.TailnetUp(ctx); err != nil {
		t.Fatalf("buddi joins the tailnet: %v", err)
	}
	phone := join(ctx, t, c.HTTPTestServer.URL, "owner-phone")
	base := "http://" + buddiIP(ctx, t, phone)

	dash := webtest.Open(t, d)
	p := dash.Page(t, 375, 812)
	dash.SignIn(t, p)
	goTo := func(route string) {
		t.Helper()
		if _, err := p.Goto(dash.Base + "/" + route); err != nil {
			t.Fatal(err)
		}
	}
	goTo("#/settings/tailnet")
	webtest.Visible(t, p.Locator("p", pw.PageLocatorOptions{HasText: "buddi is on your tailnet at http://"}))
	webtest.Visible(t, p.Locator(`li[data-login="seed@example.com"]`))

	add := func(login string) {
		t.Helper()
		if err := p.Locator(".tailnet-form input[name=login]").Fill(login); err != nil {
			t.Fatal(err)
		}
		webtest.Click(t, p.Locator(".tailnet-form button[type=submit]"))
	}
	add("not a login")
	bad := p.Locator(".said.bad").First()
	webtest.Visible(t, bad)
	if text, _ := bad.TextContent(); !strings.HasSuffix(strings.TrimSpace(text), ".") || strings.Count(text, ". ") > 1 {
		t.Fatalf("the refusal is not one sentence: %q", text)
	}
	add(strings.ToUpper(phone.login))
	webtest.Visible(t, p.Locator(`li[data-login="`+phone.login+`"]`))

	// The phone's login opens buddi signed in over the tailnet.
	if code, r, _ := phone.call(t, base, "GET", "/api/session", nil); code != http.StatusOK || !r.OK || phone.jar == "" {
		t.Fatalf("the added login's GET /api/session over the tailnet answered %d %+v", code, r.Error)
	}
	goTo("#/settings/devices")
	row := p.Locator(`li[data-device][data-tailnet="` + phone.login + `"]`)
	webtest.Visible(t, row)
	if text, _ := row.TextContent(); !strings.Contains(text, "owner-phone") || !strings.Contains(text, "tailnet "+phone.login) {
		t.Fatalf("the tailnet device is shown as %q; want its node, owner-phone, and its login", text)
	}
	webtest.Screenshot(t, p, "phone-settings-devices-tailnet")

	// Signing the device out revokes it, and takes its login off the list.
	webtest.Click(t, row.Locator("button", pw.LocatorLocatorOptions{HasText: "Sign out this device"}))
	webtest.Gone(t, row)
	if code, r, _ := phone.call(t, base, "GET", "/api/session", nil); code == http.StatusOK || r.OK {
		t.Errorf("after its device was signed out, the phone's GET /api/session over the tailnet answered %d", code)
	}
	goTo("#/settings/tailnet")
	webtest.Visible(t, p.Locator(`li[data-login="seed@example.com"]`))
	webtest.Gone(t, p.Locator(`li[data-login="`+phone.login+`"]`))
	webtest.Screenshot(t, p, "phone-settings-tailnet")

	seed := p.Locator(`li[data-login="seed@example.com"]`)
	webtest.Click(t, seed.Locator("button", pw.LocatorLocatorOptions{HasText: "Remove"}))
	webtest.Gone(t, seed)
	webtest.Visible(t, p.Locator(".empty", pw.PageLocatorOptions{HasText: "No login yet"}))
}
