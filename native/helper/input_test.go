package helper_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/native/helper"
	"github.com/buddi-dev/buddi/native/protocol"
)

func guardOf(o *protocol.Observation) protocol.Guard {
	return protocol.Guard{App: o.Window.AppID, Window: o.Window.Fingerprint}
}

func targetOf(n protocol.Node) protocol.ElementTarget {
	return protocol.ElementTarget{Ref: n.Ref, Locator: n.Locator, Fingerprint: n.Fingerprint}
}

func clickRef(t testing.TB, p *fakePlatform, o *protocol.Observation, n protocol.Node) *protocol.Response {
	t.Helper()
	tg := targetOf(n)
	return call(t, p, &protocol.Request{Call: protocol.CallClick, Click: &protocol.ClickArgs{Guard: guardOf(o), Element: &tg}})
}

func TestClickUsesThePressActionElseTheCentre(t *testing.T) {
	p := newDesktop()
	o := observe(t, p)
	if r := clickRef(t, p, o, node(t, o, "Save")); r.Error != nil || r.Input.Via != protocol.ViaAction {
		t.Fatalf("got %+v %+v", r.Input, r.Error)
	}
	if r := clickRef(t, p, o, node(t, o, "text")); r.Error != nil || r.Input.Via != protocol.ViaPointer {
		t.Fatalf("got %+v %+v", r.Input, r.Error)
	}
	if got := strings.Join(p.inputs, "; "); got != "press save; click 85,50" {
		t.Fatalf("inputs %q", got)
	}
}

func TestClickRefusesAChangedTarget(t *testing.T) {
	p := newDesktop()
	o := observe(t, p)
	p.focused.root.kids[0].info.Name = "Saved" // the button was relabelled
	wantCode(t, clickRef(t, p, o, node(t, o, "Save")), protocol.CodeTargetGone)
	n := node(t, o, "text")
	n.Locator = "nowhere"
	wantCode(t, clickRef(t, p, o, n), protocol.CodeTargetGone)
	wantCode(t, clickRef(t, p, o, node(t, o, "Far")), protocol.CodeTargetOffscreen)
	noInput(t, p)
}

func TestInputRefusedWhenFocusMoved(t *testing.T) {
	p := newDesktop()
	o := observe(t, p)
	other := *p.focused
	other.info.ID, other.info.Title = "fake:2", "Another note"
	p.focused = &other
	e := wantCode(t, clickRef(t, p, o, node(t, o, "Save")), protocol.CodeFocusChanged)
	if e.Window == nil || e.Window.ID != "fake:2" || !strings.Contains(e.Message, "Another note") {
		t.Fatalf("refusal %+v", e)
	}
	r := call(t, p, &protocol.Request{Call: protocol.CallPress, Press: &protocol.PressArgs{Guard: guardOf(o), Key: "Enter"}})
	wantCode(t, r, protocol.CodeFocusChanged)
	noInput(t, p)
}

func TestPixelClick(t *testing.T) {
	p := newDesktop()
	o := observe(t, p)
	pt := &protocol.PointTarget{X: 30, Y: 20, Scale: 1, Screenshot: o.Screenshot.Hash}
	r := call(t, p, &protocol.Request{Call: protocol.CallClick, Click: &protocol.ClickArgs{Guard: guardOf(o), Point: pt}})
	if r.Error != nil || strings.Join(p.inputs, ";") != "click 30,20" {
		t.Fatalf("got %v, inputs %v", r.Error, p.inputs)
	}

	p.inputs = nil
	outside := &protocol.PointTarget{X: 250, Y: 20, Scale: 1, Screenshot: o.Screenshot.Hash}
	r = call(t, p, &protocol.Request{Call: protocol.CallClick, Click: &protocol.ClickArgs{Guard: guardOf(o), Point: outside}})
	wantCode(t, r, protocol.CodeOutsideWindow)

	retina := &protocol.PointTarget{X: 60, Y: 40, Scale: 2, Screenshot: o.Screenshot.Hash}
	r = call(t, p, &protocol.Request{Call: protocol.CallClick, Click: &protocol.ClickArgs{Guard: guardOf(o), Point: retina}})
	if r.Error != nil || strings.Join(p.inputs, ";") != "click 30,20" {
		t.Fatalf("a 2x screenshot pixel: %v, inputs %v", r.Error, p.inputs)
	}

	p.inputs = nil
	paint(p.focused.pixels)
	r = call(t, p, &protocol.Request{Call: protocol.CallClick, Click: &protocol.ClickArgs{Guard: guardOf(o), Point: pt}})
	wantCode(t, r, protocol.CodeScreenshotChanged)
	noInput(t, p)
}

func fill(t testing.TB, p *fakePlatform, o *protocol.Observation, n protocol.Node, value string) *protocol.Response {
	t.Helper()
	return call(t, p, &protocol.Request{Call: protocol.CallFill, Fill: &protocol.FillArgs{Guard: guardOf(o), Element: targetOf(n), Value: value}})
}

func TestFill(t *testing.T) {
	p := newDesktop()
	o := observe(t, p)
	if r := fill(t, p, o, node(t, o, "text"), "new text"); r.Error != nil || r.Input.Via != protocol.ViaKeyboard {
		t.Fatalf("got %+v", r.Error)
	}
	if got := strings.Join(p.inputs, "; "); got != "focus text; clear text; type new text" {
		t.Fatalf("inputs %q", got)
	}
}

func TestFillRefusesBeforeTyping(t *testing.T) {
	p := newDesktop()
	o := observe(t, p)
	wantCode(t, fill(t, p, o, node(t, o, "Password"), "hunter3"), protocol.CodeSecureField)
	wantCode(t, fill(t, p, o, node(t, o, "Save"), "x"), protocol.CodeNotEditable)
	wantCode(t, fill(t, p, o, node(t, o, "text"), "a ☃"), protocol.CodeKeyNotAllowed)
	noInput(t, p)
}

func TestFillFailingHalfWayIsUncertain(t *testing.T) {
	p := newDesktop()
	o := observe(t, p)
	e := wantCode(t, fill(t, p, o, node(t, o, "text"), "this will fail"), protocol.CodeInputUncertain)
	if !e.InputUncertain {
		t.Fatal("not marked uncertain")
	}
	p.focused.root.kids[0].sendErr = errors.New("the bus dropped")
	wantCode(t, clickRef(t, p, o, node(t, o, "Save")), protocol.CodeInputUncertain)
}

func TestOpen(t *testing.T) {
	p := newDesktop()
	p.apps = append(p.apps, protocol.App{ID: "b.twin", Name: "Twin"}, protocol.App{ID: "a.twin", Name: "twin"})
	r := call(t, p, &protocol.Request{Call: protocol.CallOpen, Open: &protocol.OpenArgs{Name: "notes"}})
	if r.Error != nil || r.Opened.App.ID != app || r.Opened.Window.AppID != app {
		t.Fatalf("got %+v %+v", r.Opened, r.Error)
	}
	p.inputs = nil
	r = call(t, p, &protocol.Request{Call: protocol.CallOpen, Open: &protocol.OpenArgs{Name: "TWIN"}})
	e := wantCode(t, r, protocol.CodeAppAmbiguous)
	if len(e.Candidates) != 2 || e.Candidates[0].ID != "a.twin" || !strings.Contains(e.Message, "a.twin, b.twin") {
		t.Fatalf("refusal %+v", e)
	}
	wantCode(t, call(t, p, &protocol.Request{Call: protocol.CallOpen, Open: &protocol.OpenArgs{ID: "no.such"}}), protocol.CodeAppNotFound)
	noInput(t, p)
}

// TestFindNamesOneAppAndStartsNothing: find answers the one app of a name
// in any case, refuses none or several (listing the candidates) like open,
// and brings nothing forward in any of the three cases.
func TestFindNamesOneAppAndStartsNothing(t *testing.T) {
	p := newDesktop()
	p.apps = append(p.apps, protocol.App{ID: "b.twin", Name: "Twin"}, protocol.App{ID: "a.twin", Name: "twin"})
	r := call(t, p, &protocol.Request{Call: protocol.CallFind, Find: &protocol.FindArgs{Name: "NOTES"}})
	if r.Error != nil || r.Found == nil || r.Found.ID != app {
		t.Fatalf("got %+v %+v", r.Found, r.Error)
	}
	e := wantCode(t, call(t, p, &protocol.Request{Call: protocol.CallFind, Find: &protocol.FindArgs{Name: "Twin"}}), protocol.CodeAppAmbiguous)
	if len(e.Candidates) != 2 || e.Candidates[1].ID != "b.twin" {
		t.Fatalf("refusal %+v", e)
	}
	wantCode(t, call(t, p, &protocol.Request{Call: protocol.CallFind, Find: &protocol.FindArgs{Name: "Nothing"}}), protocol.CodeAppNotFound)
	noInput(t, p)
}

func TestOpenNameSearchIsBoundedToFiveSeconds(t *testing.T) {
	p := newDesktop()
	p.searchCh = make(chan struct{})
	start := time.Now()
	r := call(t, p, &protocol.Request{Call: protocol.CallOpen, Open: &protocol.OpenArgs{Name: "Notes"}})
	wantCode(t, r, protocol.CodeAppSearchTimeout)
	if time.Since(start) > 9*time.Second {
		t.Fatal("the search was not cut at five seconds")
	}
	noInput(t, p)
}

func TestOpenWaitsForTheAppsWindow(t *testing.T) {
	p := newDesktop()
	p.apps = append(p.apps, protocol.App{ID: "org.example.Slow", Name: "Slow"})
	r := call(t, p, &protocol.Request{Call: protocol.CallOpen, TimeoutMS: 300, Open: &protocol.OpenArgs{ID: "org.example.Slow"}})
	wantCode(t, r, protocol.CodeAppNotReady)
}

func TestNavigate(t *testing.T) {
	p := newDesktop()
	p.apps = append(p.apps, protocol.App{ID: "chromium", Name: "Chromium"})
	r := call(t, p, &protocol.Request{Call: protocol.CallNavigate, Navigate: &protocol.NavigateArgs{Browser: "chromium", URL: "https://example.com/a"}})
	if r.Error != nil || r.Navigated.URL != "https://example.com/a" || strings.Join(p.inputs, ";") != "open chromium https://example.com/a" {
		t.Fatalf("got %+v, inputs %v", r.Error, p.inputs)
	}
	r = call(t, p, &protocol.Request{Call: protocol.CallNavigate, Navigate: &protocol.NavigateArgs{Browser: "firefox", URL: "https://example.com/"}})
	wantCode(t, r, protocol.CodeAppNotFound)
}

var _ helper.Platform = (*fakePlatform)(nil)
