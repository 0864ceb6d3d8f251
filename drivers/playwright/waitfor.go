package playwright

import (
	"context"
	"strconv"
	"strings"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
)

// waitFor waits for a selector, a text, a URL substring or the load event.
func (t *tab) waitFor(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	w := a.Wait
	if w == nil || countSet(w) != 1 {
		return nil, badInput("wait_for takes exactly one of selector, text, url, load or ref.")
	}
	limit := a.TimeoutOr(waitDefault, waitMax)
	var err error
	switch {
	case w.Target != nil:
		err = t.waitShown(ctx, w.Target, limit)
	case w.URL != "":
		err = t.waitURL(ctx, w.URL, limit)
	case w.Load:
		err = do(ctx, func() error {
			return t.page.WaitForLoadState(pw.PageWaitForLoadStateOptions{State: pw.LoadStateLoad, Timeout: ms(ctx, limit)})
		})
	default:
		loc := t.page.Locator(w.Selector)
		if w.Text != "" {
			loc = t.page.GetByText(w.Text)
		}
		err = do(ctx, func() error {
			return loc.First().WaitFor(pw.LocatorWaitForOptions{State: pw.WaitForSelectorStateVisible, Timeout: ms(ctx, limit)})
		})
	}
	if err != nil {
		return nil, t.waitFailed(ctx, err, limit)
	}
	return t.outcome(ctx, drivers.Done, false), nil
}

func (t *tab) waitFailed(ctx context.Context, err error, limit time.Duration) error {
	if de := asDriverError(err); de != nil {
		return de
	}
	if ctx.Err() != nil {
		return abandoned(ctx)
	}
	if isTimeout(err) {
		return fail(drivers.CodeTimeout, err, "Nothing matched within "+waitedFor(limit))
	}
	if strings.Contains(err.Error(), "selector") || strings.Contains(err.Error(), "Unexpected token") {
		return badInput("The selector is not valid CSS or Playwright syntax.")
	}
	return t.failed(err, notAnswering)
}

// waitURL waits until the tab's URL contains sub, on navigation events
// rather than by polling the page.
func (t *tab) waitURL(ctx context.Context, sub string, limit time.Duration) error {
	ok := func() bool { return strings.Contains(t.page.URL(), sub) }
	if _, done := t.nav.await(ctx, limit, func(navMark) bool { return ok() }); done {
		return nil
	}
	if ctx.Err() != nil {
		return abandoned(ctx)
	}
	return fail(drivers.CodeTimeout, nil, "The URL did not contain "+strconv.Quote(sub)+" within "+waitedFor(limit))
}

// waitedFor ends a wait's refusal: the limit as the agent gave it (to a tenth
// of a second, not rounded to seconds: 300 ms was told as 0s), and what to
// do next.
func waitedFor(limit time.Duration) string {
	return limit.Round(100*time.Millisecond).String() + "; observe to see where the page is."
}

func countSet(w *drivers.WaitCond) int {
	n := 0
	for _, set := range []bool{w.Selector != "", w.Text != "", w.URL != "", w.Load, w.Target != nil} {
		if set {
			n++
		}
	}
	return n
}

// waitShown waits until the element of an observed ref is shown: in its
// tab, on the page the observation saw, in its frame.
func (t *tab) waitShown(ctx context.Context, tg *drivers.Target, limit time.Duration) error {
	if tg.Tab != "" && tg.Tab != t.id {
		return staleRef(tg.Ref, "is in another tab; switch to it and observe there")
	}
	if now, then := t.page.URL(), t.observedURL(); then != "" && now != then {
		return staleRef(tg.Ref, "belongs to a page the tab has left (it is now at "+now+")")
	}
	f := t.page.MainFrame()
	if fr := t.frameOf(tg.Ref); fr != nil {
		f = fr
	}
	loc := f.Locator(refSelector(tg.Ref))
	return do(ctx, func() error {
		return loc.WaitFor(pw.LocatorWaitForOptions{State: pw.WaitForSelectorStateVisible, Timeout: ms(ctx, limit)})
	})
}
