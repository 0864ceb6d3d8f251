package cdp_test

import (
	"testing"

	"github.com/buddi-dev/buddi/drivers/cdp"
)

// The parameters are the ones Chrome takes, by the protocol's names: a
// wheel carries both deltas even at zero (Chrome refuses a wheel without
// them), optional fields are left out rather than sent empty, and a
// command without parameters sends none.
func TestParamsAreTheProtocols(t *testing.T) {
	cases := []struct {
		c      cdp.Command
		method string
		want   map[string]any
		absent []string
	}{
		{cdp.MouseWheel{X: 5, Y: 6, DeltaY: 120}, "Input.dispatchMouseEvent",
			map[string]any{"type": "mouseWheel", "x": 5.0, "y": 6.0, "deltaX": 0.0, "deltaY": 120.0}, nil},
		{cdp.MouseEvent{Type: cdp.MouseMoved, X: 1, Y: 2}, "Input.dispatchMouseEvent",
			map[string]any{"type": "mouseMoved", "x": 1.0, "y": 2.0}, []string{"button", "clickCount"}},
		{cdp.KeyEvent{Type: cdp.KeyUp, Key: "a"}, "Input.dispatchKeyEvent",
			map[string]any{"type": "keyUp", "key": "a"}, []string{"code", "windowsVirtualKeyCode", "text"}},
		{cdp.NavigateToHistoryEntry{EntryID: 7}, "Page.navigateToHistoryEntry", map[string]any{"entryId": 7.0}, nil},
		{cdp.CaptureScreenshot{Format: "jpeg", Quality: 75, Clip: &cdp.Viewport{Width: 800, Height: 600, Scale: 1}},
			"Page.captureScreenshot", map[string]any{"format": "jpeg", "quality": 75.0}, nil},
		{cdp.FailRequest{RequestID: "r1", ErrorReason: "BlockedByClient"}, "Fetch.failRequest",
			map[string]any{"requestId": "r1", "errorReason": "BlockedByClient"}, nil},
		{cdp.ContinueRequest{RequestID: "r2"}, "Fetch.continueRequest",
			map[string]any{"requestId": "r2"}, []string{"interceptResponse"}},
		{cdp.ContinueRequest{RequestID: "r3", InterceptResponse: true}, "Fetch.continueRequest",
			map[string]any{"requestId": "r3", "interceptResponse": true}, nil},
		{cdp.Evaluate{Expression: "1", ContextID: 12}, "Runtime.evaluate",
			map[string]any{"expression": "1", "contextId": 12.0, "returnByValue": false}, []string{"awaitPromise"}},
		{cdp.Evaluate{Expression: "1", ReturnByValue: true}, "Runtime.evaluate",
			map[string]any{"returnByValue": true}, []string{"contextId", "awaitPromise"}},
		{cdp.RuntimeEnable{}, "Runtime.enable", nil, nil},
		{cdp.CreateIsolatedWorld{FrameID: "F1", WorldName: "w"}, "Page.createIsolatedWorld",
			map[string]any{"frameId": "F1", "worldName": "w"}, nil},
	}
	for _, c := range cases {
		if got := c.c.Method(); got != c.method {
			t.Errorf("%T: method %s, want %s", c.c, got, c.method)
		}
		p := cdp.Params(c.c)
		for k, v := range c.want {
			if p[k] != v {
				t.Errorf("%T: %s = %v, want %v", c.c, k, p[k], v)
			}
		}
		for _, k := range c.absent {
			if _, ok := p[k]; ok {
				t.Errorf("%T: %s is sent, want it left out", c.c, k)
			}
		}
	}
	if p := cdp.Params(cdp.StopLoading{}); p != nil {
		t.Errorf("a command without parameters sends %v", p)
	}
	clip, _ := cdp.Params(cdp.CaptureScreenshot{Clip: &cdp.Viewport{Width: 8, Height: 6, Scale: 0.5}})["clip"].(map[string]any)
	if clip["x"] != 0.0 || clip["width"] != 8.0 || clip["scale"] != 0.5 {
		t.Errorf("clip %v", clip)
	}
}
