package extension

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/jpeg"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/cdp"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/handwire"
)

// fake is the extension at the Caller seam: answer decides each reply.
type fake struct {
	mu     sync.Mutex
	calls  []string
	answer func(method string, params map[string]any) (any, *messages.Error)
}

func (f *fake) Call(_ context.Context, method string, params any) (json.RawMessage, *messages.Error) {
	var p map[string]any
	b, _ := json.Marshal(params)
	_ = json.Unmarshal(b, &p)
	f.mu.Lock()
	f.calls = append(f.calls, method)
	f.mu.Unlock()
	v, e := f.answer(method, p)
	if e != nil {
		return nil, e
	}
	out, _ := json.Marshal(v)
	return out, nil
}

func (f *fake) count(method string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		if c == method {
			n++
		}
	}
	return n
}

// pageAnswer answers open and an observe read with a one-link tree.
func pageAnswer(method string, p map[string]any) (any, *messages.Error) {
	switch method {
	case "open", "tabs":
		return map[string]any{"tabs": []map[string]any{{"id": 5, "url": "https://example.org/", "title": "Example"}}}, nil
	case "info":
		return map[string]any{"id": 5, "url": "https://example.org/", "title": "Example", "status": "complete"}, nil
	case "eval":
		if strings.HasPrefix(p["expr"].(string), "__buddi.queryAll(document, \"focus\")") {
			return map[string]any{"value": `{"has":true}`}, nil
		}
		read, _ := json.Marshal(map[string]any{"tree": `- link "Next" [ref=e1]`, "next": 2, "title": "Example", "url": "https://example.org/",
			"infos": map[string]any{"e1": map[string]any{"tag": "a", "role": "link", "name": "Next", "vis": true}}})
		if strings.Contains(p["expr"].(string), "__buddiSlots") {
			return map[string]any{"value": map[string]any{"t": string(read)}}, nil
		}
		return map[string]any{"value": string(read)}, nil
	}
	return map[string]any{}, nil
}

func quickRetries(t *testing.T) {
	old := readRetries
	readRetries = []time.Duration{time.Millisecond, time.Millisecond, time.Millisecond}
	t.Cleanup(func() { readRetries = old })
}

// TestAPageThatDoesNotAnswerIsReadThreeTimesMore: a read that fails is
// tried again three times (the engine put in again each time) before the
// page is said not to answer; one that answers on a later try is used.
func TestAPageThatDoesNotAnswerIsReadThreeTimesMore(t *testing.T) {
	quickRetries(t)
	for _, failures := range []int{3, 4} {
		n := 0
		f := &fake{answer: func(method string, p map[string]any) (any, *messages.Error) {
			if method == "eval" && n < failures {
				n++
				return nil, messages.Errorf(messages.CodeNotAnswering, "The page script failed.")
			}
			return pageAnswer(method, p)
		}}
		tabs, err := New(Config{Caller: f}).Open(context.Background(), "c1")
		if err != nil {
			t.Fatal(err)
		}
		obs, err := tabs.Observe(context.Background(), drivers.ObserveOptions{})
		if got := f.count("eval"); failures == 3 && (err != nil || got != 4 || obs.Refs["e1"].Name != "Next") {
			t.Fatalf("three failures then an answer: %v after %d reads", err, got)
		}
		if got := f.count("eval"); failures == 4 && (drivers.CodeOf(err) != drivers.CodeNotAnswering || got != 4) {
			t.Fatalf("four failures: %v after %d reads; want not_answering after 4", err, got)
		}
	}
}

// TestTheEngineIsSentAgainToAWorkerThatLostIt: a restarted worker has no
// engine; the driver sends it again and the call goes through.
func TestTheEngineIsSentAgainToAWorkerThatLostIt(t *testing.T) {
	lost := true
	f := &fake{answer: func(method string, p map[string]any) (any, *messages.Error) {
		switch {
		case method == "setup":
			lost = false
			if !strings.Contains(p["engine"].(string), "queryAll") {
				t.Errorf("setup sent no engine")
			}
		case method == "eval" && lost:
			return nil, &messages.Error{Code: engineMissing, Message: "The extension lost the page engine."}
		}
		return pageAnswer(method, p)
	}}
	d := New(Config{Caller: f})
	tabs, err := d.Open(context.Background(), "c1")
	if err != nil {
		t.Fatal(err)
	}
	lost = true // the worker restarted after the first setup
	if _, err := tabs.Observe(context.Background(), drivers.ObserveOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := f.count("setup"); n != 2 {
		t.Fatalf("the engine was sent %d times; want once at first and once again", n)
	}
}

// TestARefReadBeforeTheTabMovedOnIsStale: the document the tab shows now
// is not the one the ref was read from, so nothing is clicked.
func TestARefReadBeforeTheTabMovedOnIsStale(t *testing.T) {
	url := "https://example.org/"
	f := &fake{answer: func(method string, p map[string]any) (any, *messages.Error) {
		if method == "eval" && strings.HasPrefix(p["expr"].(string), "({infos") {
			return map[string]any{"value": map[string]any{"infos": `{"e1":{"tag":"a","role":"link","name":"Next","vis":true}}`, "url": url}}, nil
		}
		if method == "eval" && strings.Contains(p["expr"].(string), "document.URL !== ") {
			// the checked point: the page's check, as a page at url makes it
			return map[string]any{"value": map[string]any{"recheck": !strings.Contains(p["expr"].(string), `"`+url+`"`)}}, nil
		}
		return pageAnswer(method, p)
	}}
	tabs, _ := New(Config{Caller: f}).Open(context.Background(), "c1")
	obs, err := tabs.Observe(context.Background(), drivers.ObserveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tg := obs.Refs["e1"]
	url = "https://example.org/elsewhere"
	_, err = tabs.Do(context.Background(), &drivers.Action{Kind: drivers.Click, Target: obs.Of(tg)})
	if drivers.CodeOf(err) != drivers.CodeTargetGone || !strings.Contains(err.Error(), "elsewhere") {
		t.Fatalf("a click after the tab moved on gave %v; want stale_ref naming where it is", err)
	}
	if n := f.count("cdp"); n != 0 {
		t.Fatalf("%d debugger commands went out for a stale ref", n)
	}
}

// TestTheHandsInputIsTheDebuggers: each kind of the hand's input is the
// debugger command Chrome takes, named keys with their codes.
func TestTheHandsInputIsTheDebuggers(t *testing.T) {
	cases := []struct {
		in     handwire.Input
		method string
		want   map[string]any
	}{
		{handwire.Input{Kind: handwire.Down, X: 3, Y: 4, Button: handwire.ButtonRight}, "Input.dispatchMouseEvent",
			map[string]any{"type": "mousePressed", "button": "right", "x": 3.0}},
		{handwire.Input{Kind: handwire.Wheel, X: 1, Y: 1, DY: 120}, "Input.dispatchMouseEvent",
			map[string]any{"type": "mouseWheel", "deltaY": 120.0}},
		{handwire.Input{Kind: handwire.KeyDown, Key: "Enter"}, "Input.dispatchKeyEvent",
			map[string]any{"type": "keyDown", "code": "Enter", "windowsVirtualKeyCode": 13.0, "text": "\r"}},
		{handwire.Input{Kind: handwire.KeyUp, Key: "Enter"}, "Input.dispatchKeyEvent",
			map[string]any{"type": "keyUp", "code": "Enter"}},
		{handwire.Input{Kind: handwire.Char, Key: "é"}, "Input.insertText", map[string]any{"text": "é"}},
	}
	for _, c := range cases {
		cmd := handEvent(&c.in)
		method, params := cmd.Method(), cdp.Params(cmd)
		if method != c.method {
			t.Errorf("%s: %s; want %s", c.in.Kind, method, c.method)
		}
		for k, v := range c.want {
			if params[k] != v {
				t.Errorf("%s: %s = %v; want %v", c.in.Kind, k, params[k], v)
			}
		}
	}
	if up := cdp.Params(handEvent(&handwire.Input{Kind: handwire.KeyUp, Key: "Enter"})); up["text"] != nil {
		t.Error("a key's release types text")
	}
}

// TestMaskedFieldsAreCoveredInTheScreenshot: the boxes the engine names
// are painted over, scaled to the picture; the rest is left.
func TestMaskedFieldsAreCoveredInTheScreenshot(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 200, 100))
	for y := range 100 {
		for x := range 200 {
			img.Set(x, y, color.RGBA{0, 0, 200, 255})
		}
	}
	var raw bytes.Buffer
	if err := jpeg.Encode(&raw, img, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	s, err := mask(raw.Bytes(), view{W: 400, H: 200, Masks: [][4]float64{{100, 50, 100, 50}}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := jpeg.Decode(bytes.NewReader(s.jpeg))
	if err != nil {
		t.Fatal(err)
	}
	gray := func(x, y int) bool { r, g, b, _ := out.At(x, y).RGBA(); return r>>8 > 150 && g>>8 > 150 && b>>8 > 150 }
	if !gray(75, 37) {
		t.Error("the masked field (at half scale: 50..100, 25..50) is not covered")
	}
	if gray(10, 10) || gray(150, 80) {
		t.Error("the mask covered what it should not")
	}
}

// TestAKeyThatGoesNowhereStaysOnThePage: a key pressed before any
// observation, on a page that does not move, answers same_page (as in
// the Playwright driver), not a navigation.
func TestAKeyThatGoesNowhereStaysOnThePage(t *testing.T) {
	f := &fake{answer: pageAnswer}
	tabs, _ := New(Config{Caller: f}).Open(context.Background(), "c1")
	out, err := tabs.Do(context.Background(), &drivers.Action{Kind: drivers.Press, Value: "Tab"})
	if err != nil || out.Result != drivers.SamePage || out.Changed {
		t.Fatalf("a Tab on a page that stays: %+v, %v; want same_page", out, err)
	}
	if n := f.count("cdp"); n != 2 {
		t.Fatalf("%d debugger commands for one key; want its down and up", n)
	}
}
