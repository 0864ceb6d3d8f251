package playwright

import (
	"context"
	"strings"
	"time"

	pw "github.com/mxschmitt/playwright-go"
)

// How CheckURL is enforced: every tab has its own DevTools session that
// intercepts its document requests (intercept.go): navigations, every
// redirect hop, frames (cross-site ones too). Playwright's own routes are not
// used: they see only the first URL of a redirect chain, add a round trip to
// every subresource, and race in playwright-go when a popup's first request
// is routed before its page exists. A popup's first document is the one
// request no tab session sees yet: the popup is checked when Playwright
// reports it and closed at once when its URL is refused.

// checkURL runs CheckURL on a URL this conversation's tabs are about to
// open (a navigation, a redirect hop, a popup, a frame) and tells
// OnRefused of a refusal: every URL the browser is kept from goes through
// here. Blank pages pass.
func (ts *Tabs) checkURL(raw string) error {
	cfg := ts.b.cfg
	if cfg.CheckURL == nil || raw == "" || strings.HasPrefix(raw, "about:") {
		return nil
	}
	err := cfg.CheckURL(raw)
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
