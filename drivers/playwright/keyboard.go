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
//
// Right after a click (clicked), an untargeted key waits until the focus
// is where that click put it (clickArrived) before it is checked and sent.
func (ts *Tabs) press(ctx context.Context, a *drivers.Action, clicked pw.Frame) (*drivers.Outcome, error) {
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
	st, err := t.clickArrived(ctx, clicked)
	if err != nil {
		return nil, err
	}
	if typesText(a.Value) && ts.d.cfg.CheckField != nil {
		if st == nil {
			if st, err = t.focused(ctx); err != nil {
				return nil, err
			}
		}
		if err := ts.checkText(st, a.Value); err != nil {
			return nil, err
		}
	}
	return t.pressKey(ctx, a)
}

// clickArrived waits, when the latest action was a click (in frame
// clicked) in this tab and
// the tab has frames of other origins, until every frame agrees that the
// focus is in the frame clicked, and answers that frame's state then; nil
// when there is nothing to wait for. A click moves the focus into (or out
// of) a frame of another process in the browser's own time, and until the
// browser has moved it the frames still agree on where it was: a key
// checked then would be checked against the field the focus is leaving
// and sent to the one the click focused. When the focus does not arrive
// (the page moved it on, or a late move of an earlier key undid it), the
// key is refused before any input, as the extension refuses a key whose
// frame the focus did not reach: it would go somewhere the agent did not
// choose. The observation still holds, and the next press does not wait
// again.
func (t *tab) clickArrived(ctx context.Context, clicked pw.Frame) (*focusState, error) {
	if clicked == nil || clicked.IsDetached() || clicked.Page() != t.page || t.oneOrigin() {
		return nil, nil
	}
	got, st, err := t.settledFocus(ctx, clicked)
	if err != nil {
		return nil, err
	}
	if got == nil {
		return nil, fail(drivers.CodeNotAllowed, nil, "The focus had not come to where the last click put it when the key was due, so buddi pressed nothing; press again to send the key where the focus is now, or click the field first.")
	}
	return st, nil
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
	if st, err = r.t.focusArrived(ctx, r.f, st); err != nil {
		return nil, err
	}
	if r.f == r.t.page.MainFrame() && !st.Owner {
		// The focus read is the top document's: its mark serves the key.
		r.t.keepMark(r.t.page.URL(), navAnswer{Nav: st.Nav})
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

// focusArrived waits, in a tab with frames, until the focus that focusRef put
// in frame f (st, its answer) has reached the browser, which sends the key
// to the focused frame: until then a key goes where the focus was, which
// may be another frame's field (settledFocus). It answers the frame's
// state as then read. A focus that went on into a frame within f may end
// in any frame. A tab whose frames are all of one origin is in one
// process, where the focus moves at once.
func (t *tab) focusArrived(ctx context.Context, f pw.Frame, st *focusState) (*focusState, error) {
	if t.oneOrigin() {
		return st, nil
	}
	want := f
	if st.Owner {
		want = nil
	}
	got, now, err := t.settledFocus(ctx, want)
	if err != nil {
		return nil, err
	}
	if got == nil {
		return nil, fail(drivers.CodeNotAnswering, nil, "The focus had not reached the target when the key was due, so buddi pressed nothing; press again, or observe first.")
	}
	return now, nil
}

// pressKey presses the key where the focus is and reports what it did.
// When the key goes into the top document (its focus is not in a frame),
// that document's navigation mark is compared before and after: a key
// that left it as it was started no navigation as the page handled it (the
// key's events are handled before the press returns), and the press
// answers same_page at once instead of waiting navStartWindow for one. A
// navigation a page's timer starts later is the next observation's, as
// for a click.
//
// The mark before need not be read just before the key: the one the
// latest observation or key read of the same page serves (knownMark), as
// the mark only counts up. A navigation that started since then changes it
// too, and the press goes the long way, as it would for its own.
func (t *tab) pressKey(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	before, _ := t.nav.now()
	mark, known := t.knownMark(t.page.URL()), true
	if mark == nil {
		mark, known = t.topMark(ctx), false
	}
	t.watch.touching()
	if err := do(ctx, func() error { return t.page.Keyboard().Press(a.Value) }); err != nil {
		return nil, t.failed(err, func(err error) error {
			return fail(drivers.CodePartial, err, "The key press may have half happened: observe before doing anything else.")
		})
	}
	if out := t.stayed(ctx, before, mark, known); out != nil {
		return out, nil
	}
	return t.settle(ctx, before, navStartWindow, a.TimeoutOr(navTimeout, 0), nil)
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
	url := t.page.URL()
	var st navAnswer
	if err := t.probe(ctx, t.page.MainFrame(), "nav", &st); err != nil || st.Nav == "" || st.Owner {
		return nil
	}
	t.keepMark(url, st)
	return &st
}

// keepMark remembers the top document's mark, read at the page URL url.
func (t *tab) keepMark(url string, st navAnswer) {
	t.mu.Lock()
	t.mark, t.markURL = st, url
	t.mu.Unlock()
}

// knownMark is the latest mark read of the top document while the page
// was at url, when its focus was not in a frame; nil when there is none.
func (t *tab) knownMark(url string) *navAnswer {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.markURL != url || t.mark.Nav == "" || t.mark.Owner {
		return nil
	}
	st := t.mark
	return &st
}

// stayed answers input that started no navigation: the top document's mark
// is what it was before (was), and no navigation reached the tab's events
// since before. Nil (go the long way) when either cannot be told. A known
// mark (was read before the input's turn) did not see where the focus was
// as the key went: when the focus is in a frame after it, the key may have
// gone there, and it goes the long way too.
func (t *tab) stayed(ctx context.Context, before navMark, was *navAnswer, known bool) *drivers.Outcome {
	if was == nil {
		return nil
	}
	url := t.page.URL()
	var now navAnswer
	if err := t.probe(ctx, t.page.MainFrame(), "nav", &now); err != nil || now.Nav != was.Nav || known && now.Owner {
		return nil
	}
	if m, _ := t.nav.now(); m.moved(before) {
		return nil
	}
	t.keepMark(url, now)
	return &drivers.Outcome{Result: drivers.SamePage, URL: url, Title: messages.Clip(now.Title, drivers.MaxTitle)}
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
