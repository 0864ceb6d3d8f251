package helper_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/native/helper"
	"github.com/buddi-dev/buddi/native/protocol"
)

// fakePlatform is a desktop held in memory: the seam the helper's shared
// logic is tested at. It records every input it is sent.
type fakePlatform struct {
	focused  *fakeWindow
	next     *fakeWindow // takes focus once Focused was called switchAt times
	switchAt int
	calls    int
	apps     []protocol.App
	inputs   []string
	searchCh chan struct{} // when set, AppsNamed blocks on it or the context
	panicIn  string
}

type fakeWindow struct {
	p      *fakePlatform
	info   protocol.Window
	root   *fakeElement
	pixels *image.RGBA
}

type fakeElement struct {
	w       *fakeWindow
	loc     string
	info    helper.ElementInfo
	box     protocol.Rect
	kids    []*fakeElement
	press   bool  // has a press action
	sendErr error // returned by input methods
	infoErr error
}

func (p *fakePlatform) Probe(context.Context) protocol.Permissions {
	return protocol.Permissions{Platform: "fake", Ready: true, Checks: []protocol.Check{{Name: "display", OK: true, Detail: "Fake."}}}
}

func (p *fakePlatform) RequestPermissions(ctx context.Context) protocol.Permissions {
	return p.Probe(ctx)
}

func (p *fakePlatform) Focused(context.Context) (helper.Window, error) {
	if p.panicIn == "Focused" {
		panic("the window server went away")
	}
	p.calls++
	if p.next != nil && p.calls > p.switchAt {
		p.focused = p.next
	}
	if p.focused == nil {
		return nil, protocol.Errorf(protocol.CodeNoFocusedWindow, "No window has focus.")
	}
	return p.focused, nil
}

func (p *fakePlatform) AppByID(_ context.Context, id string) (protocol.App, bool, error) {
	for _, a := range p.apps {
		if a.ID == id {
			return a, true, nil
		}
	}
	return protocol.App{}, false, nil
}

func (p *fakePlatform) AppsNamed(ctx context.Context, name string) ([]protocol.App, error) {
	if p.searchCh != nil {
		select {
		case <-p.searchCh:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	var out []protocol.App
	for _, a := range p.apps {
		if strings.EqualFold(a.Name, name) {
			out = append(out, a)
		}
	}
	return out, nil
}

func (p *fakePlatform) Activate(_ context.Context, a protocol.App) (bool, error) {
	p.inputs = append(p.inputs, "activate "+a.ID)
	return true, nil
}

func (p *fakePlatform) OpenURL(_ context.Context, b protocol.App, url string) error {
	p.inputs = append(p.inputs, "open "+b.ID+" "+url)
	return nil
}

func (w *fakeWindow) Info() protocol.Window { return w.info }

func (w *fakeWindow) Root(context.Context) (helper.Element, error) {
	if w.root == nil {
		return nil, errors.New("no accessibility")
	}
	return w.root, nil
}

func (w *fakeWindow) Resolve(_ context.Context, loc string) (helper.Element, error) {
	var find func(e *fakeElement) *fakeElement
	find = func(e *fakeElement) *fakeElement {
		if e.loc == loc {
			return e
		}
		for _, k := range e.kids {
			if f := find(k); f != nil {
				return f
			}
		}
		return nil
	}
	if w.root != nil {
		if e := find(w.root); e != nil {
			return e, nil
		}
	}
	return nil, protocol.Errorf(protocol.CodeTargetGone, "Gone.")
}

func (w *fakeWindow) Capture(context.Context) (*image.RGBA, float64, error) {
	if w.p.panicIn == "Capture" {
		panic("capture exploded")
	}
	return w.pixels, 1, nil
}

func (w *fakeWindow) Click(_ context.Context, x, y int) error {
	w.p.inputs = append(w.p.inputs, "click "+itoa(x)+","+itoa(y))
	return nil
}

func (w *fakeWindow) Typable(_ context.Context, text string) error {
	if strings.ContainsRune(text, '☃') {
		return protocol.Errorf(protocol.CodeKeyNotAllowed, "No snowmen on this keyboard.")
	}
	return nil
}

func (w *fakeWindow) Type(_ context.Context, text string) error {
	w.p.inputs = append(w.p.inputs, "type "+text)
	if strings.Contains(text, "fail") {
		return errors.New("the key events stopped half-way")
	}
	return nil
}

func (w *fakeWindow) Key(_ context.Context, key string) error {
	w.p.inputs = append(w.p.inputs, "key "+key)
	return nil
}

func (e *fakeElement) Locator() string { return e.loc }

func (e *fakeElement) Info(context.Context) (helper.ElementInfo, error) { return e.info, e.infoErr }

func (e *fakeElement) Box(context.Context) (protocol.Rect, error) { return e.box, nil }

func (e *fakeElement) Children(context.Context) ([]helper.Element, error) {
	out := make([]helper.Element, len(e.kids))
	for i, k := range e.kids {
		out[i] = k
	}
	return out, nil
}

func (e *fakeElement) Press(context.Context) (bool, error) {
	if e.sendErr != nil {
		return false, e.sendErr
	}
	if e.press {
		e.w.p.inputs = append(e.w.p.inputs, "press "+e.loc)
	}
	return e.press, nil
}

func (e *fakeElement) Focus(context.Context) error {
	e.w.p.inputs = append(e.w.p.inputs, "focus "+e.loc)
	return nil
}

func (e *fakeElement) Clear(context.Context) error {
	e.w.p.inputs = append(e.w.p.inputs, "clear "+e.loc)
	return nil
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

const app = "org.example.Notes"

// newDesktop builds a focused window of app with a small tree:
// window > [button "Save" (press action), group > [textbox, password],
// hidden button, text "Save" under the button].
func newDesktop() *fakePlatform {
	p := &fakePlatform{apps: []protocol.App{{ID: app, Name: "Notes"}}}
	w := &fakeWindow{p: p, info: protocol.Window{ID: "fake:1", Title: "Notes", AppID: app, AppName: "Notes", PID: 7,
		Frame: protocol.Rect{X: 100, Y: 50, W: 200, H: 100}}}
	w.pixels = image.NewRGBA(image.Rect(0, 0, 200, 100))
	el := func(loc, role, name string, box protocol.Rect) *fakeElement {
		return &fakeElement{w: w, loc: loc, box: box, info: helper.ElementInfo{Role: role, Name: name, Visible: true}}
	}
	save := el("save", "button", "Save", protocol.Rect{X: 10, Y: 10, W: 40, H: 20})
	save.press = true
	save.kids = []*fakeElement{el("save-label", "text", "Save", protocol.Rect{X: 12, Y: 12, W: 30, H: 10})}
	text := el("text", "textbox", "", protocol.Rect{X: 10, Y: 40, W: 150, H: 20})
	text.info.Editable, text.info.Value = true, "old\ttext"
	pw := el("pw", "textbox", "Password", protocol.Rect{X: 10, Y: 70, W: 150, H: 20})
	pw.info.Editable, pw.info.Secure, pw.info.Value = true, true, "hunter2"
	hidden := el("hidden", "button", "Secret", protocol.Rect{})
	hidden.info.Visible = false
	group := el("group", "group", "", protocol.Rect{W: 200, H: 100})
	group.kids = []*fakeElement{text, pw}
	offscreen := el("far", "button", "Far", protocol.Rect{X: 500, Y: 500, W: 10, H: 10})
	w.root = el("root", "window", "Notes", protocol.Rect{W: 200, H: 100})
	w.root.kids = []*fakeElement{save, group, hidden, offscreen}
	p.focused = w
	return p
}

// call runs one request through helper.Serve and returns the answer.
func call(t testing.TB, p helper.Platform, r *protocol.Request) *protocol.Response {
	t.Helper()
	r.V = protocol.Version
	if r.TimeoutMS == 0 {
		r.TimeoutMS = 10_000
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if code := helper.Main(p, bytes.NewReader(b), &out); code != 0 {
		t.Fatalf("Main exited %d", code)
	}
	resp, err := protocol.DecodeResponse(r.Call, out.Bytes())
	if err != nil {
		t.Fatalf("the helper's answer does not decode: %v\n%s", err, out.Bytes())
	}
	return resp
}

func observe(t testing.TB, p *fakePlatform) *protocol.Observation {
	t.Helper()
	r := call(t, p, &protocol.Request{Call: protocol.CallObserve, Observe: &protocol.ObserveArgs{App: app}})
	if r.Error != nil {
		t.Fatalf("observe: %v", r.Error)
	}
	return r.Observation
}

func node(t testing.TB, o *protocol.Observation, name string) protocol.Node {
	t.Helper()
	for _, n := range o.Nodes {
		if n.Name == name || n.Locator == name {
			return n
		}
	}
	t.Fatalf("no node %q", name)
	return protocol.Node{}
}

func wantCode(t testing.TB, r *protocol.Response, code protocol.Code) *protocol.Error {
	t.Helper()
	if r.Error == nil || r.Error.Code != code {
		t.Fatalf("got %+v, want %s", r.Error, code)
	}
	return r.Error
}

func noInput(t testing.TB, p *fakePlatform) {
	t.Helper()
	if len(p.inputs) > 0 {
		t.Fatalf("input was sent: %v", p.inputs)
	}
}

func paint(img *image.RGBA) { img.Set(3, 3, color.RGBA{G: 255, A: 255}) }
