package webtest_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/web/webtest"
)

// offlineMode is the simulated browser standing in for Your browser with
// Chrome closed on the host: while off is set its drivers say they are not
// connected (drivers.Offline), so a take-over answers handReason
// browser-offline. It keeps the sim's name, so the daemon starts in it in
// the sim's place.
type offlineMode struct {
	*sim.Mode
	off *atomic.Bool
}

func (m offlineMode) Open(ctx context.Context, i int) (drivers.Driver, error) {
	d, err := m.Mode.Open(ctx, i)
	if err != nil {
		return nil, err
	}
	return offlineDriver{d, m.off}, nil
}

func (m offlineMode) OpenAgent(ctx context.Context, agent string) (drivers.Driver, error) {
	d, err := m.Mode.OpenAgent(ctx, agent)
	if err != nil {
		return nil, err
	}
	return offlineDriver{d, m.off}, nil
}

type offlineDriver struct {
	drivers.Driver
	off *atomic.Bool
}

func (d offlineDriver) Offline() bool { return d.off.Load() }

var _ drivers.Offline = offlineDriver{}

// startOffline starts buddi in the offline mode with ada's session in each
// of convs, signs a dashboard of the given size in, opens the first
// conversation's Browser tab and takes over there.
func startOffline(t *testing.T, width, height int, convs ...string) (*owner, pw.Page, pw.Locator, *atomic.Bool) {
	t.Helper()
	off := &atomic.Bool{}
	off.Store(true)
	o := start(t, daemon.Options{Mode: offlineMode{sim.NewMode(sim.Config{}, 1), off}})
	p := o.Page(t, width, height)
	o.SignIn(t, p)
	tok := o.AddAgent(t, "ada", false)
	for _, conv := range convs {
		o.Task(t, "ada", conv, 80)
		navigate(t, o, tok, conv, 1)
	}
	goTo(t, o, p, "#/chat/ada/"+convs[0]+"?tab=browser")
	tab := p.Locator(".browser-tab")
	webtest.Click(t, tab.Locator("button", pw.LocatorLocatorOptions{HasText: "Take over"}))
	webtest.Visible(t, tab.Locator(".hand-offline h3", pw.LocatorLocatorOptions{HasText: "Your browser isn't connected"}))
	return o, p, tab, off
}

// sessionsOpen lists the conversations with a session open.
func sessionsOpen(t *testing.T, o *owner) []string {
	t.Helper()
	var list messages.SessionList
	if err := o.Must(t, "GET", "/api/browser/sessions", nil).Decode(&list); err != nil {
		t.Fatal(err)
	}
	var convs []string
	for _, s := range list {
		convs = append(convs, s.Conversation)
	}
	return convs
}

// modeNow is the install's browser mode as the settings report it.
func modeNow(t *testing.T, o *owner) string {
	t.Helper()
	var s messages.BrowserSettings
	if err := o.Must(t, "GET", "/api/settings/browser", nil).Decode(&s); err != nil {
		t.Fatal(err)
	}
	return s.Mode
}

// A take-over with Your browser not connected shows why, not a live view
// that never draws; Try again asks afresh and says it is still offline;
// Use buddi's browser instead releases the session and switches the mode.
func TestATakeOverWithYourBrowserOfflineOffersAWayOut(t *testing.T) {
	o, p, tab, _ := startOffline(t, 1280, 900, "c1")
	if n, err := tab.Locator(".hand, canvas.hand-canvas").Count(); err != nil || n != 0 {
		t.Fatalf("a live view (%d, %v) shows with no browser to drive", n, err)
	}
	webtest.Visible(t, tab.Locator(".hand-offline", pw.LocatorLocatorOptions{HasText: "Open Chrome on the host"}))
	webtest.Visible(t, tab.Locator(".badge.taken_over"))
	said(t, tab, "your browser is not connected, so there is no page to drive yet")
	webtest.Screenshot(t, p, "desktop-hand-offline")

	webtest.Click(t, tab.Locator("button", pw.LocatorLocatorOptions{HasText: "Try again"}))
	said(t, tab, "Your browser is still not connected")
	webtest.Visible(t, tab.Locator(".hand-offline"))

	webtest.Click(t, tab.Locator("button", pw.LocatorLocatorOptions{HasText: "Use buddi's browser instead"}))
	said(t, tab, "agents now use buddi's own browser")
	webtest.Gone(t, tab.Locator(".hand-offline"))
	if open := sessionsOpen(t, o); len(open) != 0 {
		t.Fatalf("sessions still open after Use buddi's browser instead: %v", open)
	}
	if m := modeNow(t, o); m != "playwright" {
		t.Fatalf("the mode is %q after Use buddi's browser instead, want playwright", m)
	}
}

// Once the browser is back, Try again takes over afresh and the live view
// replaces the panel, the session still the owner's.
func TestTryAgainOpensTheLiveViewOnceYourBrowserIsBack(t *testing.T) {
	o, _, tab, off := startOffline(t, 1280, 900, "c1")
	off.Store(false)
	webtest.Click(t, tab.Locator("button", pw.LocatorLocatorOptions{HasText: "Try again"}))
	said(t, tab, "Your browser is connected again")
	webtest.Visible(t, tab.Locator(".hand-bar", pw.LocatorLocatorOptions{HasText: "You are driving"}))
	webtest.Gone(t, tab.Locator(".hand-offline"))
	webtest.Visible(t, tab.Locator(".badge.taken_over"))
	if open := sessionsOpen(t, o); len(open) != 1 || open[0] != "c1" {
		t.Fatalf("sessions open after Try again: %v, want c1's", open)
	}
}

// On a phone the two ways out are touch-sized; with another conversation's
// session open, the switch is refused with the server's sentence, and this
// conversation's session is released all the same.
func TestOnAPhoneUseBuddisBrowserSaysWhyTheModeStays(t *testing.T) {
	o, p, tab, _ := startOffline(t, 390, 844, "c1", "c2")
	for _, name := range []string{"Try again", "Use buddi's browser instead"} {
		b := tab.Locator("button", pw.LocatorLocatorOptions{HasText: name})
		webtest.Visible(t, b)
		box, err := b.BoundingBox()
		if err != nil || box == nil {
			t.Fatalf("%s has no box: %v", name, err)
		}
		if box.Height < 44 || box.X < 0 || box.X+box.Width > 390 {
			t.Errorf("%s is %.0fx%.0f at x=%.0f on a 390 px screen; want it whole and at least 44 px tall", name, box.Width, box.Height, box.X)
		}
	}
	webtest.Screenshot(t, p, "phone-hand-offline")

	webtest.Click(t, tab.Locator("button", pw.LocatorLocatorOptions{HasText: "Use buddi's browser instead"}))
	refusal := tab.Locator(".said.bad", pw.LocatorLocatorOptions{HasText: "the mode is still Your browser"})
	webtest.Visible(t, refusal)
	if got := text(t, refusal); !strings.Contains(got, "release the 1 open session") {
		t.Fatalf("the refusal says %q, not the server's sentence about the open session", got)
	}
	if open := sessionsOpen(t, o); len(open) != 1 || open[0] != "c2" {
		t.Fatalf("sessions open after the refused switch: %v, want only c2's", open)
	}
	if m := modeNow(t, o); m != "sim" {
		t.Fatalf("the mode changed to %q although the switch was refused", m)
	}
}
