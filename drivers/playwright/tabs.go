package playwright

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
)

// Tabs is one conversation's share of the browser: the pages it opened and
// the popups they opened. It outlives a browser that dies: the next one
// reopens its tabs (restart.go).
type Tabs struct {
	d     *Driver
	conv  string
	turn  chan struct{} // one Observe or Do (or a reopening) at a time
	first chan struct{} // closed once the first tab opened (or failed to)
	// clicked is the frame the latest action other than a read clicked
	// in (its page is the tab's), when it was a click that stayed on the
	// page: read and written only with the turn held.
	clicked pw.Frame

	mu       sync.Mutex
	b        *browser // the browser its tabs are in
	tabs     []*tab
	active   *tab
	seq      int
	cancelOp context.CancelCauseFunc
	held     []*tab // the tabs Interrupt holds until the call it abandoned ends
	closed   bool
	nextRef  int // the next ref number no element of this conversation has had
	// waited counts the inputs that waited a window for a navigation to
	// start (settle): what input the page itself told stayed skips.
	waited atomic.Int64
	// earlyTitles counts the clicks that stayed on the page and answered
	// with the title read as their handlers ended (titleAfterClick).
	earlyTitles atomic.Int64
	// directReads counts the engine reads that went straight to the
	// engine's world (direct.go), not through Playwright's selectors.
	directReads atomic.Int64
	// lateReads counts the reads of the main frame that could have gone
	// direct and went through Playwright's selectors.
	lateReads atomic.Int64

	lastRefused   string // the URL last refused, and when: one refusal is told once
	lastRefusedAt time.Time

	// note is what the conversation's next call is told instead of
	// running: the browser restarted, or buddi closed a page of its own.
	note *drivers.Error
	// rebound is open while the tabs wait to be reopened in a new browser,
	// replacing while a blank tab replaces the last one, cut off.
	rebound, replacing chan struct{}
	// lost are tabs that closed without buddi closing them, lately: a
	// dying browser closes every page before its context, and those are
	// the tabs the next browser reopens.
	lost []savedTab
	// saved are the tabs to reopen, as they were when the browser died.
	saved []savedTab
}

var (
	_ drivers.Tabs    = (*Tabs)(nil)
	_ drivers.Readier = (*Tabs)(nil)
)

func newTabs(d *Driver, b *browser, conv string) *Tabs {
	return &Tabs{d: d, b: b, conv: conv, turn: make(chan struct{}, 1), first: make(chan struct{})}
}

// browser is the browser the conversation's tabs are in.
func (ts *Tabs) browser() *browser {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.b
}

// interruptible is ctx made what Interrupt abandons (a take-over, a
// Stop), for what runs with the conversation's turn taken; release
// forgets it and cancels it.
func (ts *Tabs) interruptible(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	ts.mu.Lock()
	ts.cancelOp = cancel
	ts.mu.Unlock()
	return ctx, func() {
		ts.mu.Lock()
		ts.cancelOp = nil
		held := ts.held
		ts.held = nil
		ts.mu.Unlock()
		cancel(nil)
		for _, t := range held {
			t.stops.drop()
		}
	}
}

// begin takes the conversation's turn and makes the call interruptible.
// What happened to the conversation's pages since its last call (the
// browser restarted, buddi closed a page) is told first, instead of
// running the call; a conversation whose tabs wait for a new browser waits
// for them.
func (ts *Tabs) begin(ctx context.Context, owner bool) (context.Context, func(), error) {
	if err := ts.await(ctx, owner); err != nil {
		return nil, nil, err
	}
	select {
	case ts.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, nil, ended(abandoned(ctx), drivers.CodeNotAnswering, msgNotAnswering)
	}
	ctx, release := ts.interruptible(ctx)
	ts.mu.Lock()
	closed, note, dead := ts.closed, ts.note, ts.b.dead.Load()
	if !owner { // the owner's picture leaves the news for the agent
		ts.takeNote()
	}
	ts.mu.Unlock()
	end := func() {
		release()
		<-ts.turn
	}
	switch {
	case closed:
		end()
		return nil, nil, fail(drivers.CodeNoBrowser, nil, "This conversation's tabs were closed; open the session again.")
	case note != nil:
		end()
		return nil, nil, note
	case dead:
		news := ts.newsOfDeath(owner)
		end()
		if news != nil {
			return nil, nil, news
		}
		return nil, nil, fail(drivers.CodeStarting, nil, "The browser stopped a moment ago and is starting again; try again in a few seconds.")
	}
	ts.popupsReady(ctx)
	return ctx, end, nil
}

// popupReadyWait bounds the wait for a new popup's set-up.
const popupReadyWait = 5 * time.Second

// popupsReady waits until every popup of the conversation has been set up,
// so that a call never sees a popup the gate refused before it knew it (it
// is closed by then).
func (ts *Tabs) popupsReady(ctx context.Context) {
	ts.mu.Lock()
	tabs := append([]*tab(nil), ts.tabs...)
	ts.mu.Unlock()
	timer := time.NewTimer(popupReadyWait)
	defer timer.Stop()
	for _, t := range tabs {
		if !t.popup {
			continue
		}
		select {
		case <-t.ready:
		case <-ctx.Done():
			return
		case <-timer.C:
			return
		}
	}
}

// Interrupt abandons the running call and stops every pending load of the
// conversation's tabs, keeping the pages as they are, except a document
// already on its way in (stopSafely). While the abandoned call lasts (at
// most abandonWindow), its tabs are held: what it asked for is not loaded
// over the pages.
func (ts *Tabs) Interrupt() {
	ts.mu.Lock()
	cancel := ts.cancelOp
	tabs := append([]*tab(nil), ts.tabs...)
	if cancel != nil {
		for _, t := range tabs {
			t.stops.take(abandonWindow)
		}
		ts.held = append(ts.held, tabs...)
	}
	ts.mu.Unlock()
	if cancel != nil {
		cancel(errInterrupted)
	}
	var wg sync.WaitGroup
	for _, t := range tabs {
		wg.Add(1)
		go func() { defer wg.Done(); t.stopSafely() }()
	}
	wg.Wait()
}

// tooManyTabs is the refusal of a tab past drivers.MaxTabs.
func tooManyTabs() error {
	return fail(drivers.CodeTooManyTabs, nil, fmt.Sprintf("This conversation already has %d tabs, the most it may hold; close one (the tab action, op close) before opening another.", drivers.MaxTabs))
}

// full reports whether the conversation holds drivers.MaxTabs tabs.
func (ts *Tabs) full() bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return len(ts.tabs) >= drivers.MaxTabs
}

// openTab opens a blank page for the conversation and makes it active.
func (ts *Tabs) openTab(ctx context.Context) (*tab, error) {
	return ts.openTabAs(ctx, "")
}

// openTabAs is openTab for a tab called id ("" for the next id).
func (ts *Tabs) openTabAs(ctx context.Context, id string) (*tab, error) {
	if ts.full() {
		return nil, tooManyTabs()
	}
	b := ts.browser()
	p, err := b.newPage(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, abandoned(ctx)
		}
		return nil, fail(drivers.CodeNoBrowser, err, "The browser did not open a tab: it may have stopped; try again in a few seconds.")
	}
	t := ts.adopt(b, p, false, id)
	if t == nil {
		closeSoon(p)
		return nil, fail(drivers.CodeTabGone, nil, "The conversation's tabs were closed meanwhile.")
	}
	if err := t.guard(ctx); err != nil {
		t.discard()
		return nil, fail(drivers.CodeNoBrowser, err, "The browser did not set up the new tab; try again in a few seconds.")
	}
	return t, nil
}

// adopt makes p, a page of b, one of the conversation's tabs, and the
// active one, called id ("" for the next id).
func (ts *Tabs) adopt(b *browser, p pw.Page, popup bool, id string) *tab {
	ts.mu.Lock()
	if ts.closed || ts.b != b {
		ts.mu.Unlock()
		return nil
	}
	if id == "" {
		ts.seq++
		id = "t" + strconv.Itoa(ts.seq)
	}
	t := newTab(id, b, p, ts, popup)
	ts.tabs = append(ts.tabs, t)
	ts.active = t
	ts.mu.Unlock()
	return t
}

// adoptPopup runs on Playwright's dispatch goroutine when opener, one of
// the conversation's pages, opened a popup. The opener hears of it once it
// is set up: as its popup when allowed, as a refusal when its document was
// refused.
func (ts *Tabs) adoptPopup(p pw.Page, opener *tab) {
	if ts.full() { // a page opening windows in a loop: the newest go at once
		closeSoon(p)
		opener.popupRefused(tooManyTabs())
		return
	}
	t := ts.adopt(opener.b, p, true, "")
	if t == nil {
		closeSoon(p)
		return
	}
	// An error page (chrome-error://) may be a refusal the gate noted:
	// the tab's set-up finds out.
	if u := p.URL(); !strings.HasPrefix(u, "chrome-error:") {
		if err := ts.checkURL(u); err != nil {
			t.nav.block(err)
			t.discard()
			opener.popupRefused(err)
			return
		}
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		err := t.guard(ctx)
		switch {
		case errors.Is(err, errReported):
		case errors.Is(err, errPopupRefused):
			opener.popupRefused(t.nav.blockErr())
		default:
			opener.popupShown(t) // also when it closed meanwhile: the input reports that
		}
	}()
}

// forget drops a closed tab; the newest remaining tab becomes active. A
// tab buddi did not close itself is remembered a moment (lost): if its
// browser is dying, the next one reopens it.
func (ts *Tabs) forget(t *tab) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for i, x := range ts.tabs {
		if x == t {
			ts.tabs = append(ts.tabs[:i], ts.tabs[i+1:]...)
			if !t.closing.Load() {
				ts.remember(t)
			}
			break
		}
	}
	if ts.active == t {
		ts.active = nil
		if n := len(ts.tabs); n > 0 {
			ts.active = ts.tabs[n-1]
		}
	}
}

// current returns the active tab, or tab_gone.
func (ts *Tabs) current() (*tab, error) {
	ts.mu.Lock()
	t := ts.active
	ts.mu.Unlock()
	if t == nil {
		return nil, fail(drivers.CodeTabGone, nil, "This conversation has no open tab: open one with the tab action (op new).")
	}
	return t, t.alive()
}

// byID returns the conversation's tab with id, making it active.
func (ts *Tabs) byID(id string) (*tab, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for _, t := range ts.tabs {
		if t.id == id {
			ts.active = t
			return t, t.alive()
		}
	}
	return nil, fail(drivers.CodeTabGone, nil, "There is no tab "+id+" in this conversation; observe again to see the open tabs.")
}

// list describes the conversation's tabs in the order they opened.
// list names the conversation's tabs; known is a tab whose title the
// caller has just read, so it costs no round trip.
func (ts *Tabs) list(ctx context.Context, known *tab, title string) []drivers.TabInfo {
	ts.mu.Lock()
	tabs := append([]*tab(nil), ts.tabs...)
	active := ts.active
	ts.mu.Unlock()
	out := make([]drivers.TabInfo, 0, len(tabs))
	for _, t := range tabs {
		var ti drivers.TabInfo
		if t == known {
			ti = drivers.TabInfo{ID: t.id, URL: t.page.URL(), Title: title}
		} else {
			ti = t.info(ctx)
		}
		ti.Active = t == active
		out = append(out, ti)
	}
	return out
}

// Close closes the conversation's tabs; the others keep theirs.
func (ts *Tabs) Close(ctx context.Context) error {
	tabs := ts.shut()
	ts.d.drop(ts)
	for _, t := range tabs {
		if err := t.close(ctx); err != nil {
			return fail(drivers.CodeNotAnswering, err, "A tab did not close in time; the browser may be busy.")
		}
	}
	return nil
}

// shut marks the conversation closed and returns its tabs.
func (ts *Tabs) shut() []*tab {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.closed = true
	if ts.rebound != nil {
		close(ts.rebound)
		ts.rebound = nil
	}
	if ts.replacing != nil {
		close(ts.replacing)
		ts.replacing = nil
	}
	for _, t := range ts.tabs {
		t.closing.Store(true)
	}
	return append([]*tab(nil), ts.tabs...)
}

// refBase is the first ref number a read may give out.
func (ts *Tabs) refBase() int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return max(ts.nextRef, 1)
}

// refsUsed records that numbers below next have been given out.
func (ts *Tabs) refsUsed(next int) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.nextRef = max(ts.nextRef, next)
}
