package playwright

import (
	"context"
	"net/url"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
)

// navigate loads a URL in the active tab: loaded when its load event came,
// load_pending when it committed (or landed) but is still loading.
func (t *tab) navigate(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	u, err := url.Parse(a.URL)
	if err != nil || u.Scheme == "" {
		return nil, badInput("Navigate needs an absolute URL such as https://example.com/.")
	}
	if err := t.owner.checkURL(a.URL); err != nil {
		return nil, err
	}
	limit := a.TimeoutOr(navTimeout, 0)
	start := time.Now()
	before, _ := t.nav.now()
	t.watch.asking()
	_, done, err := callWatched(ctx, func() (pw.Response, error) {
		return t.page.Goto(a.URL, pw.PageGotoOptions{WaitUntil: pw.WaitUntilStateCommit, Timeout: ms(ctx, limit)})
	})
	t.stopAbandoned(ctx, done, limit)
	if err != nil && isTimeout(err) && sameDocument(t.page.URL(), a.URL) {
		return t.outcome(ctx, drivers.LoadPending, true), nil // it landed; the commit wait timed out
	}
	if err != nil {
		return nil, t.navFailed(ctx, err, before)
	}
	return t.loaded(ctx, limit-time.Since(start), drivers.Loaded)
}

// navFailed explains a navigation that did not commit.
func (t *tab) navFailed(ctx context.Context, err error, before navMark) error {
	if de := asDriverError(err); de != nil {
		return de
	}
	if m, _ := t.nav.now(); m.blocked > before.blocked {
		return t.nav.blockErr()
	}
	if netError(err) == "net::ERR_ABORTED" && t.awaitCut(ctx) {
		// buddi closed the page (or it crashed) under the navigation: the
		// agent is told that (explain finds the note), not a failed load.
		return fail(drivers.CodeNotAnswering, err, "The page in tab "+t.id+" stopped answering and was closed.")
	}
	if gone := t.alive(); gone != nil {
		return gone
	}
	if ctx.Err() != nil {
		return abandoned(ctx)
	}
	if isTimeout(err) {
		return fail(drivers.CodeTimeout, err, "The page did not answer within the time allowed; the tab stays where it was.")
	}
	if name := netError(err); name != "" {
		return fail(drivers.CodeNavFailed, err, "The page could not be loaded ("+name+").")
	}
	return fail(drivers.CodeNavFailed, err, "The page could not be loaded.")
}

// awaitCut waits, within ctx and at most noteWait, to hear that the tab's
// page was cut off or crashed, and reports whether it was: a renderer
// that dies under a navigation aborts it a moment before its crash
// reaches Playwright.
func (t *tab) awaitCut(ctx context.Context) bool {
	deadline := time.NewTimer(noteWait)
	defer deadline.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if t.crashed.Load() || t.watch.cut.Load() {
			return true
		}
		select {
		case <-tick.C:
		case <-deadline.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// sameDocument reports whether the tab is at dest, fragments aside.
func sameDocument(now, dest string) bool {
	a, err1 := url.Parse(now)
	b, err2 := url.Parse(dest)
	if err1 != nil || err2 != nil {
		return now == dest
	}
	a.Fragment, b.Fragment = "", ""
	return a.String() == b.String()
}

// history goes back or forward one entry.
func (t *tab) history(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	limit := a.TimeoutOr(navTimeout, 0)
	start := time.Now()
	before, _ := t.nav.now()
	from := t.page.URL()
	t.watch.asking()
	_, done, err := callWatched(ctx, func() (pw.Response, error) {
		if a.Kind == drivers.Back {
			return t.page.GoBack(pw.PageGoBackOptions{WaitUntil: pw.WaitUntilStateCommit, Timeout: ms(ctx, limit)})
		}
		return t.page.GoForward(pw.PageGoForwardOptions{WaitUntil: pw.WaitUntilStateCommit, Timeout: ms(ctx, limit)})
	})
	t.stopAbandoned(ctx, done, limit)
	if err != nil {
		return nil, t.navFailed(ctx, err, before)
	}
	if m, _ := t.nav.now(); m.committed == before.committed && t.page.URL() == from {
		return nil, fail(drivers.CodeNavFailed, nil, "There is no page to go "+string(a.Kind)+" to in this tab.")
	}
	return t.loaded(ctx, limit-time.Since(start), drivers.Loaded)
}

// abandonWindow bounds how long stopAbandoned keeps stopping: the race it
// closes lasts from the abandon until the browser begins the navigation,
// milliseconds; past it, a load in the tab is somebody else's (the owner's
// hand, the agent's next call).
const abandonWindow = 2 * time.Second

// stopAbandoned ends an engine navigation its call abandoned (ctx ended:
// Interrupt, the session cancelling the call as the owner took over, a
// deadline) while it is still under way (done not yet closed). Interrupt's
// own stop can come before the browser began that navigation, which would
// then load over the page the owner took over. With the gate, the tab is
// held until the navigation ends, for at most limit and abandonWindow: the
// gate refuses its document (hold.go). Without one, the tab's loading is
// stopped every 50 ms meanwhile; a stop once the navigation has begun
// aborts it and ends the engine's call.
func (t *tab) stopAbandoned(ctx context.Context, done <-chan struct{}, limit time.Duration) {
	limit = min(limit, abandonWindow)
	if ctx.Err() == nil {
		return
	}
	select {
	case <-done:
		return
	default:
	}
	if t.b.gate != nil {
		t.stops.take(limit)
		go func() {
			defer t.stops.drop()
			t.stopSafely()
			deadline := time.NewTimer(limit)
			defer deadline.Stop()
			select {
			case <-done:
			case <-deadline.C:
			}
		}()
		return
	}
	go func() {
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		deadline := time.NewTimer(limit)
		defer deadline.Stop()
		for {
			select {
			case <-done:
				return
			case <-deadline.C:
				return
			case <-tick.C:
				t.stopLoading()
			}
		}
	}()
}
