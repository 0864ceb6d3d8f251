package playwright

import (
	"context"
	"time"

	pw "github.com/mxschmitt/playwright-go"
)

// guard gives the tab its own DevTools session. Through it the driver stops
// loads (Interrupt) and intercepts the tab's document requests: Playwright's
// routes see only the first URL of a redirect chain, while the Fetch domain
// pauses every hop, so each one passes CheckURL here before it is sent.
func (t *tab) guard(ctx context.Context) error {
	s, err := call(ctx, func() (pw.CDPSession, error) { return t.owner.b.bctx.NewCDPSession(t.page) })
	if err != nil {
		return err
	}
	tree, err := call(ctx, func() (any, error) { return s.Send("Page.getFrameTree", nil) })
	if err != nil {
		return err
	}
	t.mu.Lock()
	t.cdp, t.mainFrame = s, frameTreeID(tree)
	t.mu.Unlock()
	if t.owner.b.cfg.CheckURL == nil {
		return nil
	}
	s.On("Fetch.requestPaused", func(ev map[string]any) { go t.paused(s, ev) })
	patterns := []any{map[string]any{"urlPattern": "*", "resourceType": "Document", "requestStage": "Request"}}
	if _, err := call(ctx, func() (any, error) { return s.Send("Fetch.enable", map[string]any{"patterns": patterns}) }); err != nil {
		return err
	}
	// A popup's first request goes out before its own session exists, and
	// Playwright reports the popup only later; window.open is heard here at
	// once, so a refused popup is refused on the input that opened it.
	s.On("Page.windowOpen", func(ev map[string]any) { t.openedWindow(ev) })
	if _, err := call(ctx, func() (any, error) { return s.Send("Page.enable", nil) }); err != nil {
		return err
	}
	t.guarded.Store(true)
	return nil
}

// openedWindow checks the URL a page asked window.open for; a refusal is
// recorded on this tab, the opener, so the click that opened it reports it.
func (t *tab) openedWindow(ev map[string]any) {
	url, _ := ev["url"].(string)
	if url == "" || blank(url) {
		return
	}
	if err := t.owner.checkURL(url); err != nil {
		t.nav.block(err)
		return
	}
	// Playwright reports the popup only once its page exists, which takes
	// a new (sandboxed) renderer: the input that opened it waits for it.
	t.nav.bump(func(m *navMark) { m.opening++ })
}

// paused decides one intercepted document request. It runs on a goroutine
// of its own: it calls back into the protocol.
func (t *tab) paused(s pw.CDPSession, ev map[string]any) {
	id, _ := ev["requestId"].(string)
	frameID, _ := ev["frameId"].(string)
	req, _ := ev["request"].(map[string]any)
	url, _ := req["url"].(string)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := t.owner.checkURL(url); err != nil {
		t.owner.b.log.Info("navigation blocked", "url", url, "reason", err.Error())
		if t.isMainFrame(frameID) {
			t.nav.block(err)
			t.closeIfBlockedPopup()
		}
		_, _ = call(ctx, func() (any, error) {
			return s.Send("Fetch.failRequest", map[string]any{"requestId": id, "errorReason": "Aborted"})
		})
		return
	}
	_, _ = call(ctx, func() (any, error) { return s.Send("Fetch.continueRequest", map[string]any{"requestId": id}) })
}

func (t *tab) isMainFrame(id string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return id == "" || id == t.mainFrame
}

// frameTreeID reads frameTree.frame.id from Page.getFrameTree.
func frameTreeID(tree any) string {
	m, _ := tree.(map[string]any)
	ft, _ := m["frameTree"].(map[string]any)
	f, _ := ft["frame"].(map[string]any)
	id, _ := f["id"].(string)
	return id
}

// unguardedHop covers the moments before a popup's own session is up: a
// redirect hop of its main frame that CheckURL refuses stops the load (and
// closes the popup when it never showed a page).
func (t *tab) unguardedHop(r pw.Request) {
	if t.guarded.Load() || t.owner.b.cfg.CheckURL == nil || r.RedirectedFrom() == nil {
		return
	}
	err := t.owner.checkURL(r.URL())
	if err == nil {
		return
	}
	t.nav.block(err)
	go t.stopLoading()
	t.closeIfBlockedPopup()
}
