package helper

import (
	"context"
	"math"

	"github.com/buddi-dev/buddi/native/protocol"
)

// click presses an observed element (its own press action, else a mouse
// click at the centre of its visible part) or clicks a pixel of an
// unchanged window.
func click(ctx context.Context, p Platform, a *protocol.ClickArgs) (*protocol.InputResult, error) {
	w, info, err := guarded(ctx, p, a.Guard)
	if err != nil {
		return nil, err
	}
	if a.Point != nil {
		return clickPoint(ctx, w, info, a.Point)
	}
	el, _, err := target(ctx, w, info, a.Element)
	if err != nil {
		return nil, err
	}
	pressed, err := el.Press(ctx)
	if err != nil {
		return nil, uncertain(err)
	}
	if pressed {
		return &protocol.InputResult{Via: protocol.ViaAction}, nil
	}
	box, err := el.Box(ctx)
	x, y, ok := VisibleCentre(box, info.Frame.W, info.Frame.H)
	if err != nil || !ok {
		return nil, protocol.Errorf(protocol.CodeTargetOffscreen, "%s has no visible part inside the window to click; scroll it into view, observe again and retry.", a.Element.Ref)
	}
	if err := w.Click(ctx, x, y); err != nil {
		return nil, uncertain(err)
	}
	return &protocol.InputResult{Via: protocol.ViaPointer}, nil
}

func clickPoint(ctx context.Context, w Window, info protocol.Window, pt *protocol.PointTarget) (*protocol.InputResult, error) {
	img, _, err := w.Capture(ctx)
	if err != nil {
		return nil, failed(err, protocol.CodeCaptureFailed, "The window could not be captured to check the pixel, so nothing was clicked; observe again.")
	}
	if PixelHash(img) != pt.Screenshot {
		return nil, protocol.Errorf(protocol.CodeScreenshotChanged, "The window changed since the observation, so the pixel (%d, %d) was not clicked; observe again, or click by ref.", pt.X, pt.Y)
	}
	x := int(math.Floor(float64(pt.X) / pt.Scale))
	y := int(math.Floor(float64(pt.Y) / pt.Scale))
	if !(protocol.Rect{W: info.Frame.W, H: info.Frame.H}).Contains(x, y) {
		return nil, protocol.Errorf(protocol.CodeOutsideWindow, "The pixel (%d, %d) is outside the window's screenshot; pick a point inside it.", pt.X, pt.Y)
	}
	if err := w.Click(ctx, x, y); err != nil {
		return nil, uncertain(err)
	}
	return &protocol.InputResult{Via: protocol.ViaPointer}, nil
}
