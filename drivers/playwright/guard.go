package playwright

import (
	"context"
	"strings"
	"time"

	pw "github.com/mxschmitt/playwright-go"
)

// How CheckURL is enforced: one browser-level DevTools session (the gate,
// intercept.go) pauses every document request of the browser before it is
// sent: navigations, every redirect hop, frames (cross-site ones too), and
// a popup's first request, which leaves before any tab of ours knows the
// popup. A refused request is failed and never reaches the network; the
// tab whose main frame it was for records the refusal. A popup refused
// before its tab was set up shows an error page (Playwright reports a popup
// only once a document commits), finds the refusal when its tab is set up,
// and is closed. Each tab also has a session of its own, which hears
// window.open at once: a refused one is reported to the input that made it
// there and then, and its popup's own refusal later is no news; an allowed
// one makes the input wait for its popup, shown or refused. Only popups
// that were allowed and set up count as the opener's popups.

// checkURL runs CheckURL on a URL this conversation's tabs are about to
// open (a navigation, a redirect hop, a popup, a frame) and tells
// OnRefused of a refusal: every URL the browser is kept from goes through
// here. Blank pages pass.
func (ts *Tabs) checkURL(raw string) error { return ts.checkWith(ts.d.cfg.CheckURL, raw) }

// checkURL is the check of what t opens: the owner's (OwnerURL) while the
// owner drives t, else its conversation's.
func (t *tab) checkURL(raw string) error {
	if check := t.owner.d.cfg.OwnerURL; check != nil && t.driven.Load() != nil {
		return t.owner.checkWith(check, raw)
	}
	return t.owner.checkURL(raw)
}

// checkWith runs check on raw and reports a refusal (see checkURL).
func (ts *Tabs) checkWith(check func(string) error, raw string) error {
	cfg := &ts.d.cfg
	if check == nil || raw == "" || strings.HasPrefix(raw, "about:") {
		return nil
	}
	err := check(raw)
	if err == nil {
		return nil
	}
	err = refusal(err)
	if cfg.OnRefused != nil && ts.firstRefusal(raw) {
		cfg.OnRefused(ts.conv, raw, err)
	}
	return err
}

// refusalEcho is how long the same URL refused again counts as the same
// refusal: a popup is refused where it was asked for, when it appears and
// at its first request.
const refusalEcho = 2 * time.Second

// firstRefusal reports whether raw was not refused in the last moment.
func (ts *Tabs) firstRefusal(raw string) bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	now := time.Now()
	if raw == ts.lastRefused && now.Sub(ts.lastRefusedAt) < refusalEcho {
		return false
	}
	ts.lastRefused, ts.lastRefusedAt = raw, now
	return true
}

// closeSoon closes a page off the dispatch goroutine.
func closeSoon(p pw.Page) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = do(ctx, func() error { return p.Close() })
	}()
}
