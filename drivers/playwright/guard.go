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

// allowedAt reports whether a URL a popup was opened at passes CheckURL.
func (b *browser) allowedAt(raw string) error {
	if b.cfg.CheckURL == nil || raw == "" || raw == "about:blank" || strings.HasPrefix(raw, "about:") {
		return nil
	}
	if err := b.cfg.CheckURL(raw); err != nil {
		return refusal(err)
	}
	return nil
}

// closeSoon closes a page off the dispatch goroutine.
func closeSoon(p pw.Page) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = do(ctx, func() error { return p.Close() })
	}()
}
