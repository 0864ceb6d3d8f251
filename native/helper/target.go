package helper

import (
	"context"

	"github.com/buddi-dev/buddi/native/protocol"
)

// target resolves an observed element in the focused window and checks it
// is still the element that was observed.
func target(ctx context.Context, w Window, window protocol.Window, t *protocol.ElementTarget) (Element, ElementInfo, error) {
	gone := func(err error) error {
		return failed(err, protocol.CodeTargetGone, "%s is no longer the element that was observed; observe again and use a fresh ref.", t.Ref)
	}
	el, err := w.Resolve(ctx, t.Locator)
	if err != nil {
		return nil, ElementInfo{}, gone(err)
	}
	info, err := el.Info(ctx)
	if err != nil {
		return nil, ElementInfo{}, gone(err)
	}
	role, name := identity(info)
	if !info.Visible || ElementFingerprint(window.Fingerprint, t.Locator, role, name) != t.Fingerprint {
		return nil, ElementInfo{}, gone(nil)
	}
	return el, info, nil
}

// VisibleCentre is the middle of the part of box inside a window of
// width w and height h, or false when none of it is.
func VisibleCentre(box protocol.Rect, w, h int) (x, y int, ok bool) {
	x0, y0 := max(box.X, 0), max(box.Y, 0)
	x1, y1 := min(box.X+box.W, w), min(box.Y+box.H, h)
	if x1 <= x0 || y1 <= y0 {
		return 0, 0, false
	}
	return (x0 + x1) / 2, (y0 + y1) / 2, true
}
