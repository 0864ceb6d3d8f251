package helper_test

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/native/helper"
	"github.com/buddi-dev/buddi/native/protocol"
)

func TestObserveKeepsWhatAnAgentCanUse(t *testing.T) {
	o := observe(t, newDesktop())
	var got []string
	for _, n := range o.Nodes {
		got = append(got, n.Ref+" "+strings.Repeat("  ", n.Depth)+n.Role+" "+n.Name)
	}
	want := []string{"ax1 window Notes", "ax2   button Save", "ax3   textbox ", "ax4   textbox Password", "ax5   button Far"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("tree:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if v := node(t, o, "text").Value; v != "old text" {
		t.Fatalf("the field's value reads %q, want it cleaned to one line", v)
	}
	pw := node(t, o, "Password")
	if !pw.Secure || pw.Value != "" {
		t.Fatalf("the password field shows %+v, want it masked", pw)
	}
	if o.Window.Fingerprint != helper.WindowFingerprint("fake:1", 7, app) {
		t.Fatalf("window fingerprint %s", o.Window.Fingerprint)
	}
	img, err := png.Decode(bytes.NewReader(o.Screenshot.Data))
	if err != nil || img.Bounds() != image.Rect(0, 0, 200, 100) {
		t.Fatalf("screenshot %v, %v", img.Bounds(), err)
	}
}

func TestObserveRefusesAnotherAppsWindow(t *testing.T) {
	p := newDesktop()
	r := call(t, p, &protocol.Request{Call: protocol.CallObserve, Observe: &protocol.ObserveArgs{App: "org.example.Other"}})
	e := wantCode(t, r, protocol.CodeWrongApp)
	if e.Window == nil || e.Window.AppID != app {
		t.Fatalf("the refusal names %+v, want the focused window", e.Window)
	}
}

func TestObserveWithoutTreeOrFocus(t *testing.T) {
	p := newDesktop()
	p.focused.root = nil
	wantCode(t, call(t, p, &protocol.Request{Call: protocol.CallObserve, Observe: &protocol.ObserveArgs{App: app}}), protocol.CodeNoTree)
	p.focused = nil
	wantCode(t, call(t, p, &protocol.Request{Call: protocol.CallObserve, Observe: &protocol.ObserveArgs{App: app}}), protocol.CodeNoFocusedWindow)
}

func TestObserveRefusesWhenFocusMovesWhileLooking(t *testing.T) {
	p := newDesktop()
	other := *p.focused
	other.info.ID = "fake:2"
	p.next, p.switchAt = &other, 1
	wantCode(t, call(t, p, &protocol.Request{Call: protocol.CallObserve, Observe: &protocol.ObserveArgs{App: app}}), protocol.CodeFocusChanged)
}

func TestObserveStaysWithinTheLimits(t *testing.T) {
	p := newDesktop()
	root := p.focused.root
	root.kids = nil
	long := strings.Repeat("word ", 300)
	for i := range protocol.MaxNodes + 50 {
		root.kids = append(root.kids, &fakeElement{w: p.focused, loc: "n" + itoa(i),
			info: helper.ElementInfo{Role: "button", Name: long, Value: long, Visible: true}})
	}
	o := observe(t, p)
	if !o.Truncated || len(o.Nodes) > protocol.MaxNodes {
		t.Fatalf("%d nodes, truncated %v", len(o.Nodes), o.Truncated)
	}
	text := 0
	for _, n := range o.Nodes {
		text += len(n.Name) + len(n.Value)
		if len([]rune(n.Name)) > protocol.MaxNameRunes {
			t.Fatalf("a name of %d runes", len([]rune(n.Name)))
		}
	}
	if text > protocol.MaxTextBytes {
		t.Fatalf("%d bytes of text", text)
	}
}

// TestObserveBigWindowFitsTheScreenshotLimit captures a window of noise too
// big for PNG within the limit: it comes back smaller, with its scale, and
// the hash is still that of the captured pixels.
func TestObserveBigWindowFitsTheScreenshotLimit(t *testing.T) {
	p := newDesktop()
	big := image.NewRGBA(image.Rect(0, 0, 1500, 1450))
	seed := uint32(1)
	for i := range big.Pix {
		seed = seed*1664525 + 1013904223
		big.Pix[i] = uint8(seed >> 24)
	}
	p.focused.pixels = big
	p.focused.info.Frame.W, p.focused.info.Frame.H = 1500, 1450
	o := observe(t, p)
	s := o.Screenshot
	if len(s.Data) > protocol.MaxScreenshotBytes || s.Hash != helper.PixelHash(big) {
		t.Fatalf("a %s of %d bytes, hash %s", s.Format, len(s.Data), s.Hash)
	}
	if s.Format != "jpeg" || s.Scale != float64(s.Width)/1500 {
		t.Fatalf("a %s at scale %v for a %d-pixel-wide picture of a 1500-point window, want a JPEG", s.Format, s.Scale, s.Width)
	}
}

func TestServeNeverPanics(t *testing.T) {
	p := newDesktop()
	p.panicIn = "Capture"
	r := call(t, p, &protocol.Request{Call: protocol.CallObserve, Observe: &protocol.ObserveArgs{App: app}})
	if e := wantCode(t, r, protocol.CodeHelperFailed); !strings.Contains(e.Detail, "capture exploded") {
		t.Fatalf("detail %q", e.Detail)
	}
	p.panicIn = "Focused"
	r = call(t, p, &protocol.Request{Call: protocol.CallPress, Press: &protocol.PressArgs{Guard: protocol.Guard{App: app, Window: helper.WindowFingerprint("fake:1", 7, app)}, Key: "a"}})
	if e := wantCode(t, r, protocol.CodeInputUncertain); !e.InputUncertain {
		t.Fatal("a panic during an input call does not say the input may have happened")
	}
}

func TestServeRefusesBadRequests(t *testing.T) {
	cases := map[string]protocol.Code{
		`{"v":1,"call":"script","timeout_ms":100}`: protocol.CodeBadRequest,
		`{"v":9,"call":"probe","timeout_ms":100}`:  protocol.CodeUnsupportedVersion,
		`not json`: protocol.CodeBadRequest,
		`{"v":1,"call":"probe","timeout_ms":100,"clipboard":"secret"}`: protocol.CodeBadRequest,
	}
	for in, code := range cases {
		var out bytes.Buffer
		helper.Main(newDesktop(), strings.NewReader(in), &out)
		r, err := protocol.DecodeResponse(protocol.CallProbe, out.Bytes())
		if err != nil || r.Error == nil || r.Error.Code != code {
			t.Fatalf("%s: got %s, %v; want %s", in, out.Bytes(), err, code)
		}
	}
}
