package playwright

import (
	"context"
	"strings"
	"time"

	pw "github.com/mxschmitt/playwright-go"
)

// route sees every request of the context. Documents (navigations,
// popups, frames) pass CheckURL; the rest continue untouched. Playwright
// calls it for the first URL of a redirect chain only: the tabs' own
// sessions check the later hops (intercept.go).
//
// A refused navigation is aborted without an error page, so its tab stays
// where it was. A popup's first document is different: Playwright reports a
// popup only once that document commits, so it is answered with a short
// refusal page instead (nothing reaches the network), and the popup, once
// reported, is closed for its blocked URL.
func (b *browser) route(r pw.Route) {
	req := r.Request()
	if req.ResourceType() != "document" || b.cfg.CheckURL == nil {
		_ = r.Continue()
		return
	}
	err := b.cfg.CheckURL(req.URL())
	if err == nil {
		_ = r.Continue()
		return
	}
	b.log.Info("navigation blocked", "url", req.URL(), "reason", err.Error())
	f := req.Frame()
	if f == nil && req.IsNavigationRequest() {
		_ = r.Fulfill(pw.RouteFulfillOptions{Status: pw.Int(403), ContentType: pw.String("text/plain; charset=utf-8"),
			Body: "buddi blocked this address: " + sentence(err.Error())})
		return
	}
	if f != nil && f.ParentFrame() == nil {
		b.noteBlocked(f.Page(), refusal(err))
	}
	_ = r.Abort("aborted")
}

// noteBlocked tells the page's tab that its navigation was refused; a page
// not yet adopted keeps the note until it is.
func (b *browser) noteBlocked(p pw.Page, err error) {
	if p == nil {
		return
	}
	b.mu.Lock()
	t := b.owners[p]
	if t == nil {
		b.blocked[p] = err
	}
	b.mu.Unlock()
	if t != nil {
		t.nav.block(err)
		t.closeIfBlockedPopup()
	}
}

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
