package playwright

import (
	"context"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
)

// endGrace is how long a navigation request that ended without a document
// (a download, a 204) may still take to commit.
const endGrace = 200 * time.Millisecond

// settle reports what an input did to the tab. A navigation must start
// within start; otherwise the input stayed on the page and returns at once,
// with the title early gives if it has come (nil: the title is read).
func (t *tab) settle(ctx context.Context, before navMark, start, limit time.Duration, early <-chan string) (*drivers.Outcome, error) {
	if start > 0 {
		t.owner.waited.Add(1)
	}
	m, moved := t.nav.await(ctx, start, func(m navMark) bool { return m.moved(before) })
	if ctx.Err() != nil {
		return nil, abandoned(ctx)
	}
	if !moved {
		return t.stayedOn(ctx, early), nil
	}
	if m.opening > before.opening && m.popups == before.popups && m.blocked == before.blocked {
		m, _ = t.nav.await(ctx, limit, func(m navMark) bool { return m.popups > before.popups || m.blocked > before.blocked })
	}
	if m.popups > before.popups {
		t.mu.Lock()
		popup := t.lastPopup
		t.mu.Unlock()
		return t.owner.popupOutcome(ctx, popup, limit)
	}
	return t.landed(ctx, before, limit)
}

// landed waits for the navigation an input started to commit, be blocked or
// end, and reports it.
func (t *tab) landed(ctx context.Context, before navMark, limit time.Duration) (*drivers.Outcome, error) {
	start := time.Now()
	m, _ := t.nav.await(ctx, limit, func(m navMark) bool {
		return m.committed > before.committed || m.blocked > before.blocked || m.ended > before.ended
	})
	if m.committed == before.committed && m.blocked == before.blocked && m.ended > before.ended {
		m, _ = t.nav.await(ctx, endGrace, func(m navMark) bool {
			return m.committed > before.committed || m.blocked > before.blocked
		})
	}
	switch {
	case ctx.Err() != nil:
		return nil, abandoned(ctx)
	case m.blocked > before.blocked && m.committed == before.committed:
		return nil, t.nav.blockErr()
	case m.committed > before.committed:
		return t.loaded(ctx, limit-time.Since(start), drivers.Navigated)
	case m.ended > before.ended:
		return t.outcome(ctx, drivers.SamePage, false), nil
	}
	return t.outcome(ctx, drivers.LoadPending, true), nil
}

// loaded waits for the load event up to limit: ok names the result when it
// comes, load_pending when it does not.
func (t *tab) loaded(ctx context.Context, limit time.Duration, ok string) (*drivers.Outcome, error) {
	if limit < time.Millisecond {
		limit = time.Millisecond
	}
	err := do(ctx, func() error {
		return t.page.WaitForLoadState(pw.PageWaitForLoadStateOptions{State: pw.LoadStateLoad, Timeout: ms(ctx, limit)})
	})
	if de := asDriverError(err); de != nil {
		return nil, de
	}
	if ctx.Err() != nil {
		return nil, abandoned(ctx)
	}
	if err != nil {
		return t.outcome(ctx, drivers.LoadPending, true), nil
	}
	return t.outcome(ctx, ok, true), nil
}

// outcome describes the tab as it is now.
func (t *tab) outcome(ctx context.Context, result string, changed bool) *drivers.Outcome {
	return &drivers.Outcome{Result: result, URL: t.page.URL(), Title: t.title(ctx), Changed: changed}
}

// popupOutcome reports an input that opened a popup, the active tab now:
// navigated once its first document commits, not_allowed when CheckURL
// refused that document (the popup is closed then).
func (ts *Tabs) popupOutcome(ctx context.Context, t *tab, limit time.Duration) (*drivers.Outcome, error) {
	if t == nil {
		return nil, fail(drivers.CodeTabGone, nil, "The tab the action opened closed again.")
	}
	select { // a popup refused before its tab was set up is known then
	case <-t.ready:
	case <-ctx.Done():
		return nil, abandoned(ctx)
	case <-time.After(limit):
	}
	m, _ := t.nav.await(ctx, limit, func(m navMark) bool {
		return m.committed > 0 || m.blocked > 0 || m.ended > 0 || t.closed.Load() || !blank(t.page.URL())
	})
	if m.blocked > 0 {
		return nil, t.nav.blockErr()
	}
	if ctx.Err() != nil {
		return nil, abandoned(ctx)
	}
	if t.closed.Load() {
		return nil, fail(drivers.CodeTabGone, nil, "The tab the action opened closed again.")
	}
	out := t.outcome(ctx, drivers.Navigated, true)
	// A popup the page opened before this one may still be being set up
	// (Playwright reports popups in order, but on a busy machine late): it
	// may be refused and closed, so the list waits for it.
	ts.popupsReady(ctx)
	out.Tabs = ts.list(ctx, nil, "")
	return out, nil
}

func blank(u string) bool { return u == "" || u == "about:blank" }
