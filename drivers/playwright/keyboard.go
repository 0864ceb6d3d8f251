package playwright

import (
	"context"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
)

// press sends one allowed key, to the target when given, else to whatever
// has focus. A key that types text passes CheckField for the field it lands in.
func (ts *Tabs) press(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	if !keyAllowed(a.Value) {
		return nil, badInput("Press takes one key: Enter, Tab, Escape, Backspace, Delete, the arrows, Home, End, PageUp, PageDown, Space, or a single character.")
	}
	if a.Target != nil {
		r, err := ts.resolve(ctx, a.Target)
		if err != nil {
			return nil, err
		}
		if typesText(a.Value) {
			if err := ts.checkField(r.info.field(), a.Value); err != nil {
				return nil, err
			}
		}
		before, _ := r.t.nav.now()
		err = do(ctx, func() error { return r.loc.Press(a.Value, pw.LocatorPressOptions{Timeout: ms(ctx, inputTimeout)}) })
		if err != nil {
			return nil, r.inputFailed(err, "key press", !isTimeout(err))
		}
		return r.t.settle(ctx, before, timeoutOf(a, navTimeout, 0))
	}
	t, err := ts.current()
	if err != nil {
		return nil, err
	}
	if err := t.checkFocused(ctx, a.Value); err != nil {
		return nil, err
	}
	before, _ := t.nav.now()
	if err := do(ctx, func() error { return t.page.Keyboard().Press(a.Value) }); err != nil {
		return nil, t.failed(err, func(err error) error {
			return fail(drivers.CodePartial, err, "The key press may have half happened: observe before doing anything else.")
		})
	}
	return t.settle(ctx, before, timeoutOf(a, navTimeout, 0))
}

// checkFocused runs CheckField on the focused element before a key that
// types text into it.
func (t *tab) checkFocused(ctx context.Context, key string) error {
	if !typesText(key) || t.owner.d.cfg.CheckField == nil {
		return nil
	}
	var info *elemInfo
	if err := probe(ctx, t.page.MainFrame(), "active", &info); err != nil {
		return t.failed(err, notAnswering)
	}
	if info == nil {
		return nil
	}
	return t.owner.checkField(info.field(), key)
}

// scroll scrolls the target into view, or the page by DeltaY pixels with
// the wheel at the middle of the viewport.
func (ts *Tabs) scroll(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	if a.Target != nil {
		r, err := ts.resolve(ctx, a.Target)
		if err != nil {
			return nil, err
		}
		err = do(ctx, func() error {
			return r.loc.ScrollIntoViewIfNeeded(pw.LocatorScrollIntoViewIfNeededOptions{Timeout: ms(ctx, inputTimeout)})
		})
		if err != nil {
			return nil, r.inputFailed(err, "scroll", false)
		}
		return r.t.outcome(ctx, drivers.Done, false), nil
	}
	if a.DeltaY == 0 {
		return nil, badInput("Scroll needs a target or a non-zero DeltaY.")
	}
	t, err := ts.current()
	if err != nil {
		return nil, err
	}
	err = do(ctx, func() error {
		w, h := 1280, 720
		if vp := t.page.ViewportSize(); vp != nil {
			w, h = vp.Width, vp.Height
		}
		if err := t.page.Mouse().Move(float64(w)/2, float64(h)/2); err != nil {
			return err
		}
		if err := t.page.Mouse().Wheel(0, float64(a.DeltaY)); err != nil {
			return err
		}
		_, err := t.page.Evaluate(twoFrames) // the wheel scrolls asynchronously
		return err
	})
	if err != nil {
		return nil, t.failed(err, notAnswering)
	}
	return t.outcome(ctx, drivers.Done, false), nil
}

// twoFrames resolves after the page rendered twice.
const twoFrames = `() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`
