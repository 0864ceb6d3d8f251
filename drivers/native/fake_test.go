package native_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/native"
	"github.com/buddi-dev/buddi/native/protocol"
)

// fake is a helper process we own: the test binary, answering each call
// from files the test writes.
type fake struct {
	t   *testing.T
	dir string
	drv *native.Driver
}

const (
	calc     = "org.gnome.Calculator"
	browser  = "google-chrome"
	windowFP = "w1:0123456789abcdef0123456789abcdef"
	elemFP   = "e1:0123456789abcdef0123456789abcdef"
	shotHash = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
)

func newFake(t *testing.T, cfg native.Config) *fake {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f := &fake{t: t, dir: t.TempDir()}
	cfg.Helper = exe
	cfg.Env = append(os.Environ(), fakeVar+"="+f.dir)
	if cfg.Apps == nil {
		cfg.Apps = func() native.Apps { return native.Apps{Browser: browser, Allowed: []string{browser, calc}} }
	}
	f.drv = native.New(cfg)
	t.Cleanup(func() { _ = f.drv.Close() })
	return f
}

// answer makes the helper answer call with r.
func (f *fake) answer(call protocol.Call, r *protocol.Response) {
	f.t.Helper()
	r.V = protocol.Version
	b, err := json.Marshal(r)
	if err != nil {
		f.t.Fatal(err)
	}
	f.raw(call, b)
}

func (f *fake) raw(call protocol.Call, b []byte) {
	f.t.Helper()
	if err := os.WriteFile(filepath.Join(f.dir, string(call)+".json"), b, 0o600); err != nil {
		f.t.Fatal(err)
	}
}

// requests are the requests the helper got for call, in order.
func (f *fake) requests(call protocol.Call) []protocol.Request {
	f.t.Helper()
	var out []protocol.Request
	for i := 0; ; i++ {
		b, err := os.ReadFile(filepath.Join(f.dir, string(call)+"."+itoa(i)+".req"))
		if err != nil {
			return out
		}
		var r protocol.Request
		if err := json.Unmarshal(b, &r); err != nil {
			f.t.Fatal(err)
		}
		out = append(out, r)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func pngOf(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(1, 1, color.RGBA{R: 200, A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func observation(t testing.TB, app string) *protocol.Observation {
	return &protocol.Observation{
		ObservedAt: time.Date(2026, 1, 2, 12, 4, 35, 0, time.UTC),
		Window: protocol.Window{ID: "x11:0x200004", Title: "Calculator", AppID: app, AppName: "Calculator", PID: 42,
			Frame: protocol.Rect{X: 5, Y: 5, W: 40, H: 30}, Fingerprint: windowFP},
		Nodes: []protocol.Node{
			{Ref: "ax1", Role: "window", Name: "Calculator", Box: protocol.Rect{W: 40, H: 30}, Locator: ":1.0/a", Fingerprint: elemFP},
			{Ref: "ax2", Role: "button", Name: "7", Depth: 1, Box: protocol.Rect{X: 1, Y: 1, W: 5, H: 5}, Locator: ":1.0/b", Fingerprint: elemFP},
			{Ref: "ax3", Role: "textbox", Name: "Password", Secure: true, Depth: 1, Locator: ":1.0/c", Fingerprint: elemFP},
		},
		Screenshot: protocol.Screenshot{Format: "png", Width: 40, Height: 30, Scale: 1, Data: pngOf(t, 40, 30), Hash: shotHash},
	}
}

func wantCode(t *testing.T, err error, code drivers.Code) *drivers.Error {
	t.Helper()
	var e *drivers.Error
	if !errors.As(err, &e) || e.Code != code {
		t.Fatalf("got %v, want %s", err, code)
	}
	if e.Message == "" || strings.Contains(e.Message, "\n") {
		t.Fatalf("%s has no one-line sentence: %q", code, e.Message)
	}
	return e
}

func (f *fake) observe(tabs drivers.Tabs) *drivers.Observation {
	f.t.Helper()
	obs, err := tabs.Observe(ctx(f.t), drivers.ObserveOptions{Screenshot: true})
	if err != nil {
		f.t.Fatalf("observe: %v", err)
	}
	return obs
}

// TestObserveRendersRefsAndGuardsInput: an observation lists ax refs with
// the time it was taken and masks secure fields; a click by ref sends the
// observed window and element back to the helper, and a pixel click sends
// the screenshot's hash.
func TestObserveRendersRefsAndGuardsInput(t *testing.T) {
	f := newFake(t, native.Config{})
	tabs, _ := f.drv.Open(ctx(t), "c1")
	f.answer(protocol.CallOpen, &protocol.Response{Opened: &protocol.Opened{App: protocol.App{ID: calc, Name: "Calculator"}, Window: observation(t, calc).Window}})
	if _, err := tabs.Do(ctx(t), &drivers.Action{Kind: drivers.Open, AppID: calc}); err != nil {
		t.Fatalf("open: %v", err)
	}
	f.answer(protocol.CallObserve, &protocol.Response{Observation: observation(t, calc)})
	obs := f.observe(tabs)
	for _, want := range []string{`Window "Calculator" of Calculator (org.gnome.Calculator).`, `- button "7" [ref=ax2]`, `textbox "Password" (secure, masked) [ref=ax3]`} {
		if !strings.Contains(obs.Tree, want) {
			t.Fatalf("the tree lacks %q:\n%s", want, obs.Tree)
		}
	}
	if !obs.TakenAt.Equal(time.Date(2026, 1, 2, 12, 4, 35, 0, time.UTC)) {
		t.Fatalf("the observation was taken at %v, want the helper's observed_at", obs.TakenAt)
	}
	if len(obs.Refs) != 3 || obs.Refs["ax2"].Role != "button" || len(obs.Screenshot) == 0 {
		t.Fatalf("refs %v, screenshot %d bytes", obs.Refs, len(obs.Screenshot))
	}
	if got := f.requests(protocol.CallObserve)[0].Observe.App; got != calc {
		t.Fatalf("observed app %q, want the opened %s", got, calc)
	}

	f.answer(protocol.CallClick, &protocol.Response{Input: &protocol.InputResult{Via: protocol.ViaAction}})
	if _, err := tabs.Do(ctx(t), &drivers.Action{Kind: drivers.Click, Target: obs.Of(obs.Refs["ax2"])}); err != nil {
		t.Fatalf("click: %v", err)
	}
	if _, err := tabs.Do(ctx(t), &drivers.Action{Kind: drivers.Click, Point: &drivers.Point{X: 3, Y: 4}}); err != nil {
		t.Fatalf("pixel click: %v", err)
	}
	clicks := f.requests(protocol.CallClick)
	if len(clicks) != 2 {
		t.Fatalf("the helper got %d clicks, want 2", len(clicks))
	}
	byRef, byPixel := clicks[0].Click, clicks[1].Click
	if byRef.App != calc || byRef.Window != windowFP || byRef.Element == nil || byRef.Element.Locator != ":1.0/b" || byRef.Element.Fingerprint != elemFP {
		t.Fatalf("the click by ref carried %+v", byRef)
	}
	if byPixel.Point == nil || byPixel.Point.Screenshot != shotHash || byPixel.Point.X != 3 || byPixel.Window != windowFP {
		t.Fatalf("the pixel click carried %+v", byPixel)
	}
}

// TestFocusMovedIsRefusedNotRefocused: the helper's focus_changed reaches
// the agent as the window being gone, with its sentence, and the driver
// makes no other call (it brings nothing forward).
func TestFocusMovedIsRefusedNotRefocused(t *testing.T) {
	f := newFake(t, native.Config{})
	tabs, _ := f.drv.Open(ctx(t), "c1")
	f.answer(protocol.CallObserve, &protocol.Response{Observation: observation(t, browser)})
	obs := f.observe(tabs)
	f.answer(protocol.CallClick, &protocol.Response{Error: protocol.Errorf(protocol.CodeFocusChanged, "Focus moved to Terminal since the observation, so nothing was sent; take over, put focus back in the app you meant, resume and observe again.")})
	_, err := tabs.Do(ctx(t), &drivers.Action{Kind: drivers.Click, Target: obs.Of(obs.Refs["ax2"])})
	e := wantCode(t, err, drivers.CodeTabGone)
	if !strings.Contains(e.Message, "Focus moved to Terminal") {
		t.Fatalf("the refusal says %q, not the helper's sentence", e.Message)
	}
	if n := len(f.requests(protocol.CallOpen)) + len(f.requests(protocol.CallNavigate)); n != 0 {
		t.Fatalf("the driver made %d open or navigate calls after focus moved", n)
	}
}

// TestTargetOfAnotherAppIsRefusedBeforeTheHelper: a ref observed in one app
// is not sent once another app is selected.
func TestTargetOfAnotherAppIsRefusedBeforeTheHelper(t *testing.T) {
	f := newFake(t, native.Config{})
	tabs, _ := f.drv.Open(ctx(t), "c1")
	f.answer(protocol.CallObserve, &protocol.Response{Observation: observation(t, browser)})
	seen := f.observe(tabs)
	old := seen.Of(seen.Refs["ax2"])
	f.answer(protocol.CallOpen, &protocol.Response{Opened: &protocol.Opened{App: protocol.App{ID: calc, Name: "Calculator"}, Window: observation(t, calc).Window}})
	if _, err := tabs.Do(ctx(t), &drivers.Action{Kind: drivers.Open, AppID: calc}); err != nil {
		t.Fatalf("open: %v", err)
	}
	_, err := tabs.Do(ctx(t), &drivers.Action{Kind: drivers.Click, Target: old})
	wantCode(t, err, drivers.CodeTargetGone)
	forged := drivers.Target{Element: drivers.Element{Ref: "ax2", Fingerprint: "not evidence"}}
	_, err = tabs.Do(ctx(t), &drivers.Action{Kind: drivers.Click, Target: &forged})
	wantCode(t, err, drivers.CodeTargetGone)
	if n := len(f.requests(protocol.CallClick)); n != 0 {
		t.Fatalf("the helper got %d clicks, want none", n)
	}
}

// TestHelperFailuresAreCoded: a crash during input is reported as possibly
// done, a malformed observation as the app not answering, and nothing is
// an empty success.
func TestHelperFailuresAreCoded(t *testing.T) {
	f := newFake(t, native.Config{})
	tabs, _ := f.drv.Open(ctx(t), "c1")
	f.answer(protocol.CallObserve, &protocol.Response{Observation: observation(t, browser)})
	obs := f.observe(tabs)
	_, err := tabs.Do(ctx(t), &drivers.Action{Kind: drivers.Click, Target: obs.Of(obs.Refs["ax2"])}) // no click.json: exit 3
	wantCode(t, err, drivers.CodePartial)
	f.raw(protocol.CallObserve, []byte(`{"v":1,"observation":{"window":{}}}`))
	_, err = tabs.Observe(ctx(t), drivers.ObserveOptions{})
	wantCode(t, err, drivers.CodeNotAnswering)
	f.answer(protocol.CallObserve, &protocol.Response{Error: protocol.Errorf(protocol.CodeWrongApp, "The focused window is Terminal, not google-chrome; open google-chrome first, or take over and put focus back in it.")})
	_, err = tabs.Observe(ctx(t), drivers.ObserveOptions{})
	wantCode(t, err, drivers.CodeTabGone)
}

// TestUnlistedAppIsNotOpened: an app off the owner's list goes to Approve,
// and without an approval nothing is launched.
func TestUnlistedAppIsNotOpened(t *testing.T) {
	asked := ""
	f := newFake(t, native.Config{Approve: func(_ context.Context, conv string, app protocol.App) error {
		asked = conv + " " + app.ID
		return drivers.Errorf(drivers.CodeNotAllowed, nil, "The owner said no to %s this time.", app.ID)
	}})
	tabs, _ := f.drv.Open(ctx(t), "c1")
	_, err := tabs.Do(ctx(t), &drivers.Action{Kind: drivers.Open, AppID: "org.gnome.TextEditor"})
	wantCode(t, err, drivers.CodeNotAllowed)
	if asked != "c1 org.gnome.TextEditor" {
		t.Fatalf("Approve was asked %q", asked)
	}
	if n := len(f.requests(protocol.CallOpen)); n != 0 {
		t.Fatalf("the helper was asked to open %d times", n)
	}
}

// TestNavigateChecksURLRulesAndSelectsTheBrowser: navigate asks the URL
// rules first and opens the tab in the owner's browser app only.
func TestNavigateChecksURLRulesAndSelectsTheBrowser(t *testing.T) {
	f := newFake(t, native.Config{CheckURL: func(u string) error {
		if strings.Contains(u, "127.0.0.1") {
			return drivers.Errorf(drivers.Code("private_address"), nil, "That address is private.")
		}
		return nil
	}})
	tabs, _ := f.drv.Open(ctx(t), "c1")
	_, err := tabs.Do(ctx(t), &drivers.Action{Kind: drivers.Navigate, URL: "http://127.0.0.1/"})
	wantCode(t, err, drivers.Code("private_address"))
	f.answer(protocol.CallNavigate, &protocol.Response{Navigated: &protocol.Navigated{Browser: protocol.App{ID: browser, Name: "Chrome"}, URL: "https://en.wikipedia.org/"}})
	out, err := tabs.Do(ctx(t), &drivers.Action{Kind: drivers.Navigate, URL: "https://en.wikipedia.org/"})
	if err != nil || !out.Changed {
		t.Fatalf("navigate: %+v, %v", out, err)
	}
	navs := f.requests(protocol.CallNavigate)
	if len(navs) != 1 || navs[0].Navigate.Browser != browser {
		t.Fatalf("the helper got navigations %+v; want one, in %s", navs, browser)
	}
	for _, k := range []drivers.Kind{drivers.Select, drivers.TabAction} {
		_, err := tabs.Do(ctx(t), &drivers.Action{Kind: k})
		wantCode(t, err, drivers.Code("not_supported"))
	}
}

// TestInterruptKillsTheHelper: take-over's Interrupt ends a late helper's
// call at once as interrupted.
func TestInterruptKillsTheHelper(t *testing.T) {
	f := newFake(t, native.Config{})
	tabs, _ := f.drv.Open(ctx(t), "c1")
	f.raw(protocol.CallObserve, []byte("sleep"))
	done := make(chan error, 1)
	go func() {
		_, err := tabs.Observe(ctx(t), drivers.ObserveOptions{})
		done <- err
	}()
	for len(f.requests(protocol.CallObserve)) == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	tabs.Interrupt()
	wantCode(t, <-done, drivers.CodeInterrupted)
}

// TestScreenshotIsJPEG: the screenshot action answers a JPEG of the window.
func TestScreenshotIsJPEG(t *testing.T) {
	f := newFake(t, native.Config{})
	tabs, _ := f.drv.Open(ctx(t), "c1")
	f.answer(protocol.CallObserve, &protocol.Response{Observation: observation(t, browser)})
	out, err := tabs.Do(ctx(t), &drivers.Action{Kind: drivers.Screenshot})
	if err != nil || !bytes.HasPrefix(out.Image, []byte{0xFF, 0xD8}) || out.Width != 40 {
		t.Fatalf("screenshot: %v (%d bytes, %dpx)", err, len(out.Image), out.Width)
	}
}
