package playwright

import (
	"context"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// press sends one allowed key, to the target when given (focused first),
// else to whatever has focus. A key that types text goes only where buddi
// can see the field it lands in, and that field passes CheckField: the
// focus is followed into frames and open shadow roots, and a press that
// would land where buddi cannot see (a closed shadow root) is refused.
func (ts *Tabs) press(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	if !keyAllowed(a.Value) {
		return nil, badInput("Press takes one key: Enter, Tab, Escape, Backspace, Delete, the arrows, Home, End, PageUp, PageDown, Space, or a single character.")
	}
	if a.Target != nil {
		return ts.pressOn(ctx, a)
	}
	t, err := ts.current()
	if err != nil {
		return nil, err
	}
	if typesText(a.Value) && ts.d.cfg.CheckField != nil {
		st, err := t.focused(ctx)
		if err != nil {
			return nil, err
		}
		if err := ts.checkText(st, a.Value); err != nil {
			return nil, err
		}
	}
	return t.pressKey(ctx, a)
}

// pressOn focuses the target, checks where text would land, and presses.
func (ts *Tabs) pressOn(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	r, err := ts.resolve(ctx, a.Target)
	if err != nil {
		return nil, err
	}
	text := typesText(a.Value) && ts.d.cfg.CheckField != nil
	if text {
		if err := ts.checkField(fieldOf(&r.info), a.Value); err != nil {
			return nil, err
		}
	}
	st, err := focusRef(ctx, r.f, r.ref)
	if err != nil {
		return nil, r.inputFailed(err, "key press", false)
	}
	if text {
		if st.Owner {
			st = &focusState{Unsure: true} // the focus went into a frame
		}
		if err := ts.checkText(st, a.Value); err != nil {
			return nil, err
		}
	}
	return r.t.pressKey(ctx, a)
}

// pressKey presses the key where the focus is and reports what it did.
// When the key goes into the top document (its focus is not in a frame),
// that document's navigation mark is read before and after: a key that
// left it as it was started no navigation as the page handled it (the
// key's events are handled before the press returns), and the press
// answers same_page at once instead of waiting navStartWindow for one. A
// navigation a page's timer starts later is the next observation's, as
// for a click.
func (t *tab) pressKey(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	before, _ := t.nav.now()
	mark := t.topMark(ctx)
	t.watch.touching()
	if err := do(ctx, func() error { return t.page.Keyboard().Press(a.Value) }); err != nil {
		return nil, t.failed(err, func(err error) error {
			return fail(drivers.CodePartial, err, "The key press may have half happened: observe before doing anything else.")
		})
	}
	if out := t.stayed(ctx, before, mark); out != nil {
		return out, nil
	}
	return t.settle(ctx, before, navStartWindow, a.TimeoutOr(navTimeout, 0))
}

// navAnswer is the engine's navState (walker ops.js).
type navAnswer struct {
	Nav   string `json:"nav"`
	Owner bool   `json:"owner"`
	Title string `json:"title"`
}

// topMark reads the top document's navigation mark and focus; nil when
// it cannot tell (no Navigation API, the page not answering) or the focus
// is in a frame, where a key would go instead.
func (t *tab) topMark(ctx context.Context) *navAnswer {
	var st navAnswer
	if err := probe(ctx, t.page.MainFrame(), "nav", &st); err != nil || st.Nav == "" || st.Owner {
		return nil
	}
	return &st
}

// stayed answers input that started no navigation: the top document's mark
// is what it was before (was), and no navigation reached the tab's events
// since before. Nil (go the long way) when either cannot be told.
func (t *tab) stayed(ctx context.Context, before navMark, was *navAnswer) *drivers.Outcome {
	if was == nil {
		return nil
	}
	var now navAnswer
	if err := probe(ctx, t.page.MainFrame(), "nav", &now); err != nil || now.Nav != was.Nav {
		return nil
	}
	if m, _ := t.nav.now(); m.moved(before) {
		return nil
	}
	return &drivers.Outcome{Result: drivers.SamePage, URL: t.page.URL(), Title: messages.Clip(now.Title, drivers.MaxTitle)}
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
			return r.loc.ScrollIntoViewIfNeeded(pw.LocatorScrollIntoViewIfNeededOptions{Timeout: ms(ctx, underLoad(inputTimeout))})
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
