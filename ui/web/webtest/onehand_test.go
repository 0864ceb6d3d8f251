package webtest_test

import (
	"fmt"
	"testing"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/ui/web/webtest"
)

// The phone that pressed Take over drives the page full screen, laid out
// at its own size; a laptop showing the same conversation is told another
// tab drives and does not take the hand until the owner presses Drive from
// here, which moves it there and tells the phone.
func TestASecondTabIsToldAnotherDrivesAndTakesTheHandOnlyWhenPressed(t *testing.T) {
	o := start(t, daemon.Options{})
	tok := agent(t, o, "ada", "c1")
	navigate(t, o, tok, "c1", 1)
	ph := webtest.Phone(t, o.Browser, false)
	ph.OnConsole(func(m pw.ConsoleMessage) { t.Log("phone:", m.Text()) })
	ph.OnPageError(func(e error) { t.Log("phone error:", e) })
	o.SignIn(t, ph)
	laptop := o.Page(t, 1280, 800)
	o.SignIn(t, laptop)
	goTo(t, o, laptop, "#/chat/ada/c1?tab=browser")
	goTo(t, o, ph, "#/chat/ada/c1?tab=browser")
	webtest.Click(t, ph.Locator(".browser-tab button", pw.PageLocatorOptions{HasText: "Take over"}))
	webtest.Visible(t, ph.Locator(".hand.full canvas.hand-canvas[data-painted]"))
	stage, err := ph.Locator(".hand-stage").BoundingBox()
	if err != nil || stage == nil {
		t.Fatalf("no stage: %v", err)
	}
	size, _ := ph.Locator("canvas.hand-canvas").GetAttribute("data-page")
	if want := sizeOf(stage.Width, stage.Height); size != want {
		t.Fatalf("the page is laid out at %s on a phone whose picture is %s", size, want)
	}

	offer := laptop.Locator(".hand-offer", pw.PageLocatorOptions{HasText: "Another tab is driving this page"})
	webtest.Visible(t, offer)
	if n, err := laptop.Locator("canvas.hand-canvas[data-painted]").Count(); err != nil || n != 0 {
		t.Fatalf("the laptop paints the page the phone drives (%d canvases, %v)", n, err)
	}
	webtest.Screenshot(t, laptop, "desktop-hand-another-tab")
	webtest.Click(t, offer.Locator("button", pw.LocatorLocatorOptions{HasText: "Drive from here"}))
	webtest.Visible(t, laptop.Locator("canvas.hand-canvas[data-painted]"))
	webtest.Visible(t, ph.Locator(".hand-offer", pw.PageLocatorOptions{HasText: "You drive this page from another tab now"}))
}

func sizeOf(w, h float64) string { return fmt.Sprintf("%.0fx%.0f", w, h) }

// laidOut waits (within webtest.Wait) until the hand's picture cv is of a
// page of the size of stage, the picture's place; it returns the page's
// size and the stage's.
func laidOut(t *testing.T, stage, cv pw.Locator) (size, want string) {
	t.Helper()
	for deadline := time.Now().Add(webtest.Wait); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		box, err := stage.BoundingBox()
		if err != nil || box == nil {
			t.Fatalf("no stage: %v", err)
		}
		want = sizeOf(box.Width, box.Height)
		if size, _ = cv.GetAttribute("data-page"); size == want {
			break
		}
	}
	return size, want
}

// aboveTheFold fails unless each button is on a screen of the given height.
func aboveTheFold(t *testing.T, p pw.Page, height float64, labels ...string) {
	t.Helper()
	for _, label := range labels {
		b := p.Locator("button:visible", pw.PageLocatorOptions{HasText: label}).First()
		webtest.Visible(t, b)
		box, err := b.BoundingBox()
		if err != nil || box == nil || box.Y < 0 || box.Y+box.Height > height {
			t.Errorf("%s is not above the fold of a %.0f px screen: %+v %v", label, height, box, err)
		}
	}
}

// On a laptop (1280×800) the session's controls are above the fold, on
// the Host browser page and in the conversation's Browser tab, before the
// take-over and while the owner drives.
func TestAtALaptopsSizeTheControlsStayAboveTheFold(t *testing.T) {
	o := start(t, daemon.Options{})
	tok := agent(t, o, "ada", "c1")
	navigate(t, o, tok, "c1", 1)
	p := o.Page(t, 1280, 800)
	o.SignIn(t, p)
	webtest.Visible(t, card(p, "c1").Locator("img.shot"))
	aboveTheFold(t, p, 800, "Take over", "Close & release")
	goTo(t, o, p, "#/chat/ada/c1?tab=browser")
	webtest.Visible(t, p.Locator(".browser-tab img.shot"))
	aboveTheFold(t, p, 800, "Take over", "Close & release")
	webtest.Click(t, p.Locator(".browser-tab button", pw.PageLocatorOptions{HasText: "Take over"}))
	webtest.Visible(t, p.Locator("canvas.hand-canvas[data-painted]"))
	aboveTheFold(t, p, 800, "Give it back", "Close & release")
	if n, err := p.Locator(".browser-tab button:visible", pw.PageLocatorOptions{HasText: "Resume access"}).Count(); err != nil || n != 0 {
		t.Fatalf("the taken-over card offers Resume access beside Give it back (%d, %v)", n, err)
	}
	webtest.Screenshot(t, p, "desktop-remote-hand-laptop")
}

// On a phone, a take-over from the session's card hands the hand to the
// conversation's page, where it begins while the Canvas panel is closed:
// once the panel opens, the picture fills the stage and the page is laid
// out for the phone, as when the hand begins in the open panel (before,
// the picture stayed 0 px wide and the page at the agent's size).
func TestOnAPhoneAHandBegunWithItsPanelClosedFitsThePageWhenItOpens(t *testing.T) {
	o := start(t, daemon.Options{})
	tok := agent(t, o, "ada", "c1")
	navigate(t, o, tok, "c1", 1)
	ph := webtest.Phone(t, o.Browser, false)
	o.SignIn(t, ph)
	c := card(ph, "c1")
	webtest.Click(t, c.Locator("button", pw.LocatorLocatorOptions{HasText: "Take over"}))
	webtest.Visible(t, c.Locator(".badge.taken_over"))
	goTo(t, o, ph, "#/chat/ada/c1")
	webtest.Click(t, ph.Locator("button.canvas-toggle"))
	cv := ph.Locator(".hand.full canvas.hand-canvas[data-painted]")
	webtest.Visible(t, cv)
	if size, want := laidOut(t, ph.Locator(".hand-stage"), cv); size != want {
		t.Fatalf("the page is laid out at %s on a phone whose picture is %s", size, want)
	}
	box, err := cv.BoundingBox()
	if err != nil || box == nil || box.Width < 300 || box.Height < 300 {
		t.Fatalf("the picture is drawn %+v (%v) on a 375x812 screen", box, err)
	}
}
