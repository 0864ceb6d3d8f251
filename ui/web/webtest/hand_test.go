package webtest_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/ui/web/webtest"
)

const handForm = `<!doctype html><title>Form</title><style>body{margin:0}
#name{position:absolute;left:10px;top:10px;width:300px;height:40px}
#send{position:absolute;left:10px;top:80px;width:150px;height:40px}</style>
<input id="name" aria-label="Name"><button id="send" onclick="document.getElementById('out').textContent='sent '+document.getElementById('name').value">Send</button>
<p id="out" style="position:absolute;top:140px">nothing sent</p>`

// clickAt clicks the hand's canvas where page point (x, y) is drawn.
func clickAt(t *testing.T, p pw.Page, cv pw.Locator, x, y float64) {
	t.Helper()
	bx, by := canvasPoint(t, cv, x, y)
	if err := p.Mouse().Click(bx, by); err != nil {
		t.Fatal(err)
	}
}

// tapAt taps the hand's canvas where page point (x, y) is drawn.
func tapAt(t *testing.T, p pw.Page, cv pw.Locator, x, y float64) {
	t.Helper()
	bx, by := settledPoint(t, cv, x, y)
	if err := p.Touchscreen().Tap(int(bx), int(by)); err != nil {
		t.Fatal(err)
	}
}

// settledPoint is canvasPoint once the picture stopped moving: the same
// in two reads 200 ms apart (within 10 s). Raising or lowering the phone's
// keyboard field lays the picture out again, and a tap aimed at the
// picture's old place lands beside its target.
func settledPoint(t *testing.T, cv pw.Locator, x, y float64) (float64, float64) {
	t.Helper()
	bx, by := canvasPoint(t, cv, x, y)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		time.Sleep(200 * time.Millisecond)
		nx, ny := canvasPoint(t, cv, x, y)
		if nx == bx && ny == by {
			break
		}
		bx, by = nx, ny
	}
	return bx, by
}

// canvasPoint is where on the screen the canvas draws page point (x, y).
func canvasPoint(t *testing.T, cv pw.Locator, x, y float64) (float64, float64) {
	t.Helper()
	size, err := cv.GetAttribute("data-page")
	if err != nil {
		t.Fatal(err)
	}
	var w, h float64
	if _, err := fmt.Sscanf(size, "%fx%f", &w, &h); err != nil || w == 0 {
		t.Fatalf("the canvas names no page size (%q)", size)
	}
	box, err := cv.BoundingBox()
	if err != nil || box == nil {
		t.Fatalf("the canvas has no box: %v", err)
	}
	return box.X + x/w*box.Width, box.Y + y/h*box.Height
}

// startForm starts buddi with the agents' real Chromium on the form page,
// signs a dashboard of the given size in and opens c1's Browser tab.
func startForm(t *testing.T, width, height int) (*owner, pw.Page, string) {
	t.Helper()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(handForm))
	}))
	t.Cleanup(site.Close)
	o := start(t, daemon.Options{Config: config.Config{Driver: "playwright",
		Egress: egress.Config{PreviewOrigins: []string{site.URL}}}})
	p := o.Page(t, width, height)
	o.SignIn(t, p)
	tok := agent(t, o, "ada", "c1")
	if r := o.Act(t, tok, "c1", in{"action": "navigate", "url": site.URL + "/form"}); !r.OK {
		t.Fatalf("navigate: %s: %s", r.Code(), r.Error.Message)
	}
	goTo(t, o, p, "#/chat/ada/c1?tab=browser")
	return o, p, tok
}

// The dashboard's Browser tab in real Chromium drives the agents' real
// Chromium: take over, the live picture paints, a click and typing on the
// canvas fill the form, Give it back hands the page to the agent, which
// sees what was typed.
func TestTheOwnerDrivesThePageFromTheDashboardCanvas(t *testing.T) {
	o, p, tok := startForm(t, 1280, 900)
	tab := p.Locator(".browser-tab")
	webtest.Click(t, tab.Locator("button", pw.LocatorLocatorOptions{HasText: "Take over"}))
	webtest.Visible(t, tab.Locator(".hand-bar", pw.LocatorLocatorOptions{HasText: "You are driving. Nothing you type here is kept."}))
	cv := tab.Locator("canvas.hand-canvas[data-painted]")
	webtest.Visible(t, cv)

	clickAt(t, p, cv, 60, 30)
	if err := p.Keyboard().Type("hi there"); err != nil {
		t.Fatal(err)
	}
	clickAt(t, p, cv, 50, 100)
	webtest.Screenshot(t, p, "desktop-remote-hand")
	webtest.Click(t, tab.Locator("button", pw.LocatorLocatorOptions{HasText: "Give it back"}))
	webtest.Visible(t, tab.Locator(".badge.ready"))
	webtest.Gone(t, tab.Locator(".hand"))
	obs := o.Observe(t, tok, "c1")
	if text, _ := obs["text"].(string); !strings.Contains(text, "sent hi there") {
		t.Fatalf("the page does not show what the owner typed and sent:\n%s", text)
	}
}

// On a phone: a tap on the picture focuses the field, the Keyboard toggle
// raises a field the phone types into (emptied as it fills), a tap sends.
func TestOnAPhoneTheOwnerTapsAndTypesWithTheKeyboardToggle(t *testing.T) {
	o, p, tok := startForm(t, 390, 844)
	tab := p.Locator(".browser-tab")
	webtest.Click(t, tab.Locator("button", pw.LocatorLocatorOptions{HasText: "Take over"}))
	cv := tab.Locator("canvas.hand-canvas[data-painted]")
	webtest.Visible(t, cv)
	tapAt(t, p, cv, 60, 30)
	webtest.Click(t, tab.Locator("button", pw.LocatorLocatorOptions{HasText: "Keyboard"}))
	keys := tab.Locator("input.hand-keys")
	webtest.Visible(t, keys)
	if err := p.Keyboard().Type("ok"); err != nil {
		t.Fatal(err)
	}
	if v, err := keys.InputValue(); err != nil || v != "" {
		t.Fatalf("the keyboard field keeps %q (%v); nothing typed is kept", v, err)
	}
	tapAt(t, p, cv, 50, 100)
	webtest.Screenshot(t, p, "phone-remote-hand")
	webtest.Click(t, tab.Locator("button", pw.LocatorLocatorOptions{HasText: "Give it back"}))
	webtest.Gone(t, tab.Locator(".hand"))
	obs := o.Observe(t, tok, "c1")
	if text, _ := obs["text"].(string); !strings.Contains(text, "sent ok") {
		t.Fatalf("the page does not show what the owner typed on the phone:\n%s", text)
	}
}

// A dropped connection freezes the picture with "Connection lost" and a
// Reconnect button, which attaches again and paints again.
func TestALostConnectionOffersReconnect(t *testing.T) {
	_, p, _ := startForm(t, 1280, 900)
	// The page keeps its sockets where the test can drop one, as a
	// network that went away would, before buddi notices.
	if err := p.AddInitScript(pw.Script{Content: pw.String(`(() => {
		const Real = window.WebSocket;
		window.__sockets = [];
		window.WebSocket = class extends Real { constructor(...a) { super(...a); window.__sockets.push(this); } };
	})()`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Reload(); err != nil {
		t.Fatal(err)
	}
	tab := p.Locator(".browser-tab")
	webtest.Click(t, tab.Locator("button", pw.LocatorLocatorOptions{HasText: "Take over"}))
	webtest.Visible(t, tab.Locator("canvas.hand-canvas[data-painted]"))
	if _, err := p.Evaluate(`() => window.__sockets.filter((s) => s.url.includes("/api/browser/hand")).at(-1).close()`); err != nil {
		t.Fatal(err)
	}
	lost := tab.Locator(".hand-status", pw.LocatorLocatorOptions{HasText: "Connection lost."})
	webtest.Visible(t, lost)
	webtest.Visible(t, tab.Locator("canvas.hand-canvas[data-painted]")) // the last picture stays
	if _, err := p.Evaluate(`() => { document.querySelector("canvas.hand-canvas").dataset.painted = "" }`); err != nil {
		t.Fatal(err)
	}
	webtest.Click(t, lost.Locator("button", pw.LocatorLocatorOptions{HasText: "Reconnect"}))
	webtest.Visible(t, tab.Locator(`canvas.hand-canvas[data-painted]:not([data-painted=""])`))
	webtest.Gone(t, lost)
}

// On a phone, every take-over in one dashboard tab lays the agents' real
// page out for the phone's screen, not only the first: three take-overs
// and give-backs in a row from the Browser tab, each one's page at the
// stage's size.
func TestOnAPhoneEachTakeOverInOneTabLaysThePageOutForThePhone(t *testing.T) {
	_, p, _ := startForm(t, 375, 812)
	tab := p.Locator(".browser-tab")
	for round := 1; round <= 3; round++ {
		webtest.Click(t, tab.Locator("button", pw.LocatorLocatorOptions{HasText: "Take over"}))
		cv := tab.Locator("canvas.hand-canvas[data-painted]")
		webtest.Visible(t, cv)
		if size, want := laidOut(t, tab.Locator(".hand-stage"), cv); size != want {
			t.Fatalf("take-over %d: the page is laid out at %s on a phone whose picture is %s", round, size, want)
		}
		webtest.Click(t, tab.Locator("button", pw.LocatorLocatorOptions{HasText: "Give it back"}))
		webtest.Gone(t, tab.Locator(".hand"))
	}
}
