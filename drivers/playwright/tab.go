package playwright

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
)

// tab is one page owned by one conversation, in one browser.
type tab struct {
	id      string
	b       *browser
	page    pw.Page
	owner   *Tabs
	popup   bool
	nav     *navState
	console consoleRing
	closed  atomic.Bool
	crashed atomic.Bool
	// closing is set when buddi closes the page itself (the agent, a
	// release, a refused popup, the watchdog), before it does: a page
	// closed any other way may be its browser dying.
	closing atomic.Bool
	watch   watch                  // the watchdog's view of the page (watchdog.go)
	driven  atomic.Pointer[pinned] // the pin of the owner's hand, while one holds the tab
	stops   hold                   // what makes a stop safe (hold.go)
	// clickTitle is set while a read of the title after a click
	// (titleAfterClick) is in flight.
	clickTitle atomic.Bool
	// docs counts the documents the main frame has committed; world is
	// the engine's world in one of them, for direct reads (direct.go),
	// and installing is held while the engine is loaded into one.
	docs       atomic.Uint64
	world      atomic.Pointer[world]
	installing sync.Mutex
	// ready is closed once guard has run: the gate knows the tab's main
	// frame, and a refusal of it made before then is recorded.
	ready     chan struct{}
	readyOnce sync.Once

	mu        sync.Mutex
	refs      map[string]pw.Frame // the frame of each ref of the latest observation
	infos     map[string]elemInfo // what the latest observation read of each ref it showed
	obsURL    string              // the page URL that observation saw
	cdp       pw.CDPSession
	mainFrame string                 // DevTools id of the main frame
	lastPopup *tab                   // the newest popup this tab opened
	seen      drivers.ObserveOptions // how the latest observation read the tab
	frameNos  map[pw.Frame]int       // the frames the latest view numbered
	mark      navAnswer              // the top document's latest navigation mark read (keyboard.go)
	markURL   string                 // the page URL as mark was read
	armed     <-chan string          // the read of the title the next click takes (titleAfterClick)
}

func newTab(id string, b *browser, p pw.Page, owner *Tabs, popup bool) *tab {
	t := &tab{id: id, b: b, page: p, owner: owner, popup: popup, nav: newNavState(), ready: make(chan struct{})}
	t.watch.ping.ok = time.Now() // a new page answers, as far as anyone knows
	t.listen()
	return t
}

// listen attaches the page's event handlers. They run on Playwright's
// dispatch goroutine, so they only record.
func (t *tab) listen() {
	p := t.page
	p.OnClose(func(pw.Page) { t.closed.Store(true); t.owner.forget(t); t.unclaim() })
	p.OnCrash(func(pw.Page) { t.crashed.Store(true); t.cut("crashed (it may have run out of memory)") })
	p.OnConsole(func(m pw.ConsoleMessage) {
		if t.flooding() {
			return
		}
		switch m.Type() {
		case "error":
			t.console.add("console.error", m.Text())
		case "warning":
			t.guardDropped(m.Text())
		}
	})
	p.OnPageError(func(err error) {
		if !t.flooding() {
			t.console.add("uncaught", err.Error())
		}
	})
	p.OnPopup(func(popup pw.Page) { t.owner.adoptPopup(popup, t) })
	p.OnLoad(func(pw.Page) { t.loadedNow() })
	p.OnFrameNavigated(func(f pw.Frame) {
		t.b.visited.add(f.URL())
		if f.ParentFrame() == nil {
			t.docs.Add(1)
			t.nav.bump(func(m *navMark) { m.committed++ })
		}
	})
	p.OnRequest(func(r pw.Request) {
		if t.mainNav(r) {
			t.nav.bump(func(m *navMark) { m.started++ })
			if r.RedirectedFrom() == nil {
				t.navigating()
			}
		}
	})
	p.OnRequestFailed(func(r pw.Request) {
		if t.mainNav(r) {
			t.nav.bump(func(m *navMark) { m.ended++ })
		}
	})
	p.OnRequestFinished(func(r pw.Request) {
		if t.mainNav(r) && r.RedirectedTo() == nil {
			t.nav.bump(func(m *navMark) { m.ended++ })
		}
	})
}

func (t *tab) mainNav(r pw.Request) bool {
	if !r.IsNavigationRequest() {
		return false
	}
	f := r.Frame()
	return f != nil && f.ParentFrame() == nil
}

// popupShown records a popup this tab opened, allowed and set up: the
// input that opened it reports it.
func (t *tab) popupShown(pt *tab) {
	t.mu.Lock()
	t.lastPopup = pt
	t.mu.Unlock()
	t.nav.bump(func(m *navMark) { m.popups++; m.resolved = min(m.resolved+1, m.opening) })
}

// popupRefused records a popup this tab opened whose document was refused
// (it is closed). When an allowed window.open still waits for its popup,
// this is its answer; otherwise the refusal was already heard from
// window.open itself, and a popup reported late must not count against a
// later input.
func (t *tab) popupRefused(err error) {
	if m, _ := t.nav.now(); m.opening <= m.resolved {
		return
	}
	t.nav.bump(func(m *navMark) { m.resolved++ })
	t.nav.block(err)
}

// closeIfBlockedPopup closes a popup whose first document was refused: it
// would otherwise sit blank among the conversation's tabs.
func (t *tab) closeIfBlockedPopup() {
	if t.popup && (t.page.URL() == "" || t.page.URL() == "about:blank") {
		t.discard()
	}
}

// unclaim takes the closed tab's main frame off the gate.
func (t *tab) unclaim() {
	t.mu.Lock()
	id := t.mainFrame
	t.mu.Unlock()
	if g := t.b.gate; g != nil && id != "" {
		g.release(id)
	}
}

// discard drops the tab from its conversation at once (its opener becomes
// active again) and closes its page.
func (t *tab) discard() {
	t.closing.Store(true)
	t.owner.forget(t)
	closeSoon(t.page)
}

// close closes the page, as buddi's own doing; a page closed already is
// no failure.
func (t *tab) close(ctx context.Context) error {
	t.closing.Store(true)
	if err := do(ctx, func() error { return t.page.Close() }); err != nil && !isClosed(err) {
		return err
	}
	return nil
}

// alive fails with tab_gone or not_answering when the page cannot be used.
// t.closed is set by the page's close event; Page.IsClosed is not asked,
// since playwright-go writes its flag on its dispatcher goroutine without a
// lock (the race detector caught the read).
func (t *tab) alive() error {
	if t.closed.Load() {
		return fail(drivers.CodeTabGone, nil, "The tab "+t.id+" was closed; observe again to see the open tabs.")
	}
	if t.crashed.Load() {
		return fail(drivers.CodeNotAnswering, nil, "The page in tab "+t.id+" crashed; navigate it again or close it.")
	}
	return nil
}

// failed maps a Playwright error on this tab to tab_gone when the tab went
// away meanwhile, else to def.
func (t *tab) failed(err error, def func(error) error) error {
	if err == nil {
		return nil
	}
	var de *drivers.Error
	if errors.As(err, &de) {
		return de
	}
	if gone := t.alive(); gone != nil && (isClosed(err) || t.closed.Load()) {
		return gone
	}
	return def(err)
}

func (t *tab) info(ctx context.Context) drivers.TabInfo {
	return drivers.TabInfo{ID: t.id, URL: t.page.URL(), Title: t.title(ctx)}
}

func (t *tab) setRefs(url string, refs map[string]pw.Frame, infos map[string]elemInfo) {
	t.mu.Lock()
	t.obsURL, t.refs, t.infos = url, refs, infos
	t.mu.Unlock()
}

// observed is what the latest observation read of ref's element, and its
// frame (nil for the page's own).
func (t *tab) observed(ref string) (elemInfo, pw.Frame, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	info, ok := t.infos[ref]
	return info, t.refs[ref], ok
}

func (t *tab) observedURL() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.obsURL
}

func (t *tab) frameOf(ref string) pw.Frame {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.refs[ref]
}

// stopLoading stops whatever the page is loading, through the DevTools
// protocol so that a busy page cannot delay it.
func (t *tab) stopLoading() {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	t.mu.Lock()
	s := t.cdp
	t.mu.Unlock()
	if s == nil {
		if t.guard(ctx) != nil {
			return
		}
		t.mu.Lock()
		s = t.cdp
		t.mu.Unlock()
	}
	_, _ = call(ctx, func() (any, error) { return s.Send("Page.stopLoading", nil) })
}
