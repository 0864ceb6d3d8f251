package macos

import (
	"context"
	"fmt"
	"image"
	"math"

	"github.com/buddi-dev/buddi/native/helper"
	"github.com/buddi-dev/buddi/native/protocol"
)

var _ helper.Window = (*window)(nil)

// maxChildren bounds the children read of one element.
const maxChildren = 1000

// window is the focused AX window of an application. The process exits
// after one call, so the AX references it holds are never released.
type window struct {
	el     uintptr
	pid    int32
	number uint32
	origin cgPoint // its top-left corner on the global display
	info   protocol.Window
}

func newWindow(el uintptr, pid int32) (*window, error) {
	w := &window{el: el, pid: pid}
	posV, err1 := attr(el, "AXPosition")
	sizeV, err2 := attr(el, "AXSize")
	pos, ok1 := pointOf(posV)
	size, ok2 := sizeOf(sizeV)
	if err1 != nil || err2 != nil || !ok1 || !ok2 || size.W < 1 || size.H < 1 {
		return nil, protocol.Errorf(protocol.CodeNoFocusedWindow, "The focused window has no position or size (it may be minimised or off screen); take over and bring it back.")
	}
	cfRelease(posV)
	cfRelease(sizeV)
	w.origin = pos
	var ok bool
	if haveGetWindow {
		ok = axUIElementGetWindow(el, &w.number) == axSuccess && w.number != 0
	}
	if !ok {
		w.number, ok = windowNumber(pid, pos, size)
	}
	if !ok {
		return nil, protocol.Errorf(protocol.CodeNoFocusedWindow, "The focused window is not on screen; take over and bring it forward.")
	}
	bundle, name := runningApp(pid)
	w.info = protocol.Window{ID: fmt.Sprintf("cg:%d", w.number), Title: attrString(el, "AXTitle"),
		AppID: bundle, AppName: name, PID: int(pid),
		Frame: protocol.Rect{X: int(math.Round(pos.X)), Y: int(math.Round(pos.Y)), W: int(math.Round(size.W)), H: int(math.Round(size.H))}}
	return w, nil
}

func (w *window) Info() protocol.Window { return w.info }

// Root is the window element itself.
func (w *window) Root(context.Context) (helper.Element, error) {
	return &element{w: w, ref: w.el, path: []int{}}, nil
}

// Resolve walks the locator's child indexes down from the window.
func (w *window) Resolve(_ context.Context, loc string) (helper.Element, error) {
	path, ok := parsePath(loc)
	if !ok {
		return nil, protocol.Errorf(protocol.CodeTargetGone, "The target is not a ref of this window; observe again and use a fresh ref.")
	}
	cur := w.el
	for _, i := range path {
		_, kids, err := children(cur, i+1)
		if err != nil || i >= len(kids) {
			return nil, protocol.Errorf(protocol.CodeTargetGone, "The target is gone from the window; observe again and use a fresh ref.")
		}
		cur = kids[i]
	}
	return &element{w: w, ref: cur, path: path}, nil
}

// Capture reads the window's pixels at the display's resolution.
func (w *window) Capture(context.Context) (*image.RGBA, float64, error) {
	img, err := captureWindow(w.number)
	if err != nil {
		return nil, 0, err
	}
	return img, float64(img.Rect.Dx()) / float64(w.info.Frame.W), nil
}

// Click clicks at a window-relative point.
func (w *window) Click(_ context.Context, x, y int) error {
	return click(cgPoint{X: w.origin.X + float64(x), Y: w.origin.Y + float64(y)})
}

// Typable accepts any text fill allows: it goes as Unicode key events,
// whatever the keyboard layout.
func (w *window) Typable(context.Context, string) error { return nil }

// Type sends text as Unicode key events.
func (w *window) Type(_ context.Context, text string) error {
	for _, r := range text {
		if err := typeRune(r); err != nil {
			return err
		}
	}
	return nil
}

// Key presses a named key, or types one character.
func (w *window) Key(ctx context.Context, key string) error {
	if k, ok := keyFor(key); ok {
		return pressKey(k)
	}
	return w.Type(ctx, key)
}
