package playwright

import (
	"context"
	"fmt"
	"sync"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers/cdp"
	"github.com/buddi-dev/buddi/messages"
)

// gate intercepts every document request of the whole browser through one
// browser-level DevTools session: navigations, each redirect hop, frames,
// and a popup's very first request, which is paused before any tab session
// of ours exists for it. Each passes CheckURL before anything is sent.
// Playwright's own routes are not used: they see only the first URL of a
// redirect chain and add a round trip to every subresource.
type gate struct {
	b *browser
	s pw.CDPSession

	mu      sync.Mutex
	frames  map[string]*tab  // main-frame id (the page's target id) → its tab
	refused map[string]error // main frames refused before a tab knew them
	order   []string         // refused, oldest first, to keep it bounded
	opens   []string         // URLs of window.open calls refused (and reported) already
}

// refusedKept bounds what the gate remembers of refusals no tab claimed.
const refusedKept = 64

// openGate starts intercepting. Without a CheckURL there is nothing to
// check and no gate.
func openGate(ctx context.Context, b *browser) (*gate, error) {
	if b.cfg.CheckURL == nil {
		return nil, nil
	}
	br := b.bctx.Browser()
	if br == nil {
		return nil, errNoBrowserSession
	}
	s, err := call(ctx, br.NewBrowserCDPSession)
	if err != nil {
		return nil, err
	}
	g := &gate{b: b, s: s, frames: map[string]*tab{}, refused: map[string]error{}}
	s.On("Fetch.requestPaused", func(ev map[string]any) { go g.paused(ev) })
	enable := cdp.FetchEnable{Patterns: []cdp.RequestPattern{{URLPattern: "*", ResourceType: "Document", RequestStage: "Request"}}}
	if _, err := call(ctx, func() (any, error) { return send(s, enable) }); err != nil {
		return nil, err
	}
	return g, nil
}

// paused decides one intercepted document request, or the response of a
// tab's main-frame document (see hold.go). It runs on a goroutine of its
// own: it calls back into the protocol.
func (g *gate) paused(ev map[string]any) {
	id, _ := ev["requestId"].(string)
	frameID, _ := ev["frameId"].(string)
	req, _ := ev["request"].(map[string]any)
	url, _ := req["url"].(string)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	g.mu.Lock()
	t := g.frames[frameID]
	g.mu.Unlock()
	if answered(ev) {
		if t != nil && !t.stops.admit() {
			g.b.log.Info("a document arriving after a stop refused", "tab", t.id, "site", messages.SiteOnly(url))
			g.fail(ctx, id, "Aborted")
			return
		}
		_, _ = call(ctx, func() (any, error) { return send(g.s, cdp.ContinueRequest{RequestID: id}) })
		return
	}
	if err := g.check(t, url); err != nil {
		g.b.log.Info("navigation blocked", "url", messages.Recorded(messages.CodeOf(err), url), "reason", err.Error())
		// A tab's own navigation is aborted: the tab keeps its page. Any
		// other frame (a popup no tab knows yet, a subframe) gets an error
		// page instead, since Playwright reports a popup only once a first
		// document commits; the popup's tab then finds the refusal noted
		// here, closes, and its opener hears of it.
		reason := "BlockedByClient"
		if t := g.refuse(frameID, url, err); t != nil {
			t.nav.block(err)
			t.closeIfBlockedPopup()
			reason = "Aborted"
		}
		g.fail(ctx, id, reason)
		return
	}
	if t != nil && t.stops.refuses() {
		g.b.log.Info("a document asked for after a stop refused", "tab", t.id, "site", messages.SiteOnly(url))
		g.fail(ctx, id, "Aborted")
		return
	}
	// A tab's main-frame document is paused again once answered.
	if t != nil {
		t.stops.asked()
	}
	_, _ = call(ctx, func() (any, error) {
		return send(g.s, cdp.ContinueRequest{RequestID: id, InterceptResponse: t != nil})
	})
}

// answered reports whether a paused request is at its response.
func answered(ev map[string]any) bool {
	_, code := ev["responseStatusCode"]
	_, failed := ev["responseErrorReason"]
	return code || failed
}

// fail fails the paused request id for reason.
func (g *gate) fail(ctx context.Context, id, reason string) {
	_, _ = call(ctx, func() (any, error) {
		return send(g.s, cdp.FailRequest{RequestID: id, ErrorReason: reason})
	})
}

// check runs CheckURL on url for the main frame of t, or for a frame no
// tab claims yet when t is nil. A refusal for a tab's main frame is
// reported to that tab's conversation (once per URL, see Tabs.checkURL);
// one for a frame no tab claims yet is only returned. A tab buddi cut off
// or is closing loads nothing more.
func (g *gate) check(t *tab, url string) error {
	if t != nil && t.closing.Load() {
		return errClosing
	}
	if t != nil {
		return t.checkURL(url)
	}
	if err := g.b.cfg.CheckURL(url); err != nil {
		return refusal(err)
	}
	return nil
}

// openRefused notes the URL of a window.open call refused (and reported to
// the input that made it): the popup's own refusal is then no news.
func (g *gate) openRefused(url string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.opens = append(g.opens, url)
	if len(g.opens) > refusedKept {
		g.opens = g.opens[1:]
	}
}

// reported takes url off the refused window.open calls, reporting whether
// it was one. The caller holds g.mu.
func (g *gate) reported(url string) bool {
	for i, u := range g.opens {
		if u == url {
			g.opens = append(g.opens[:i], g.opens[i+1:]...)
			return true
		}
	}
	return false
}

// refuse returns the tab whose main frame frameID is, or nil after noting
// the refusal of url for a tab that may claim the frame later (a popup
// whose tab is not set up yet), as errReported when it is the URL of a
// window.open refused already. A subframe's refusal matches no tab and is
// noted too; no tab ever claims it.
func (g *gate) refuse(frameID, url string, err error) *tab {
	g.mu.Lock()
	defer g.mu.Unlock()
	if t := g.frames[frameID]; t != nil {
		return t
	}
	if g.reported(url) {
		err = fmt.Errorf("%w: %w", errReported, err)
	}
	if _, ok := g.refused[frameID]; !ok {
		g.order = append(g.order, frameID)
		if len(g.order) > refusedKept {
			delete(g.refused, g.order[0])
			g.order = g.order[1:]
		}
	}
	g.refused[frameID] = err
	return nil
}

// claim registers t as the tab of main frame id and returns a refusal of
// that frame made before t knew its id.
func (g *gate) claim(id string, t *tab) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.frames[id] = t
	err := g.refused[id]
	delete(g.refused, id)
	return err
}

// release forgets a closed tab's main frame.
func (g *gate) release(id string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.frames, id)
}

// guard gives the tab its own DevTools session, through which the driver
// stops loads (Interrupt) and hears window.open, and registers the tab's
// main frame with the gate.
func (t *tab) guard(ctx context.Context) error {
	defer t.readyOnce.Do(func() { close(t.ready) })
	s, err := call(ctx, func() (pw.CDPSession, error) { return t.b.bctx.NewCDPSession(t.page) })
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
	g := t.b.gate
	if g == nil {
		return nil
	}
	if err := g.claim(t.mainFrame, t); err != nil {
		t.nav.block(err)
		if t.popup {
			t.discard()
			return fmt.Errorf("%w: %w", errPopupRefused, err)
		}
	}
	// A popup the page opens is heard here at once, so a refused popup is
	// refused on the input that opened it.
	s.On("Page.windowOpen", func(ev map[string]any) { t.openedWindow(ev) })
	s.On("Page.frameNavigated", func(ev map[string]any) {
		if f, _ := ev["frame"].(map[string]any); f["parentId"] == nil {
			t.stops.committed()
		}
	})
	s.On("Page.loadEventFired", func(map[string]any) { t.stops.loaded() })
	mainFrame := frameTreeID(tree)
	s.On("Page.lifecycleEvent", func(ev map[string]any) {
		if ev["name"] == "firstPaint" && ev["frameId"] == mainFrame {
			t.stops.painted()
		}
	})
	if _, err = call(ctx, func() (any, error) { return s.Send("Page.enable", nil) }); err != nil {
		return err
	}
	_, err = call(ctx, func() (any, error) {
		return s.Send("Page.setLifecycleEventsEnabled", map[string]any{"enabled": true})
	})
	return err
}

// openedWindow checks the URL a page asked window.open for; a refusal is
// recorded on this tab, the opener, so the click that opened it reports it.
func (t *tab) openedWindow(ev map[string]any) {
	url, _ := ev["url"].(string)
	if url == "" || blank(url) {
		return
	}
	if err := t.checkURL(url); err != nil {
		t.nav.block(err)
		if g := t.b.gate; g != nil {
			g.openRefused(url)
		}
		return
	}
	// Playwright reports the popup only once its page exists, which takes
	// a new (sandboxed) renderer: the input that opened it waits for it.
	t.nav.bump(func(m *navMark) { m.opening++ })
}

// frameTreeID reads frameTree.frame.id from Page.getFrameTree.
func frameTreeID(tree any) string {
	m, _ := tree.(map[string]any)
	ft, _ := m["frameTree"].(map[string]any)
	f, _ := ft["frame"].(map[string]any)
	id, _ := f["id"].(string)
	return id
}
