package playwright

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// The watchdog is one goroutine per browser. Every watchEvery it asks the
// browser itself (over a browser-level DevTools session) and every page of
// every conversation (over the page's own session) a question that costs
// nothing to answer, keeping one in flight each. A page that has left its
// question unanswered for silentAfter (its renderer spins, loops on
// dialogs, or is lost in its own DOM), that crashed (it ran out of memory),
// that logs past what its page guard lets through, or that navigates
// itself without end, is cut off: buddi closes it, its conversation keeps
// a blank tab, and the conversation's next call (or the call waiting on
// that page) is told so with code page_unresponsive. A browser that leaves
// its question unanswered for wedgedAfter is killed and started again
// (start.go), and so is one whose connection broke.

// Bounds of the watchdog, on an idle machine; a loaded one stretches the
// waits (load.go), by at most silentStretch, evidenceStretch and
// wedgedStretch: on a 2-core machine busy with ten times its work, a
// legitimate page that builds 200,000 elements keeps its renderer busy
// for over 10 s.
const (
	watchEvery    = time.Second
	silentAfter   = 8 * time.Second
	silentStretch = maxLoad
	wedgedAfter   = 20 * time.Second
	wedgedStretch = 2
	// floodLines console lines and uncaught errors within floodWindow are
	// more than the page guard lets a page log: the page got around it.
	floodLines  = 1000
	floodWindow = 2 * time.Second
	// droppedBurst console lines the page guard dropped within
	// droppedWindow are a page that floods its console without end.
	droppedBurst  = 5000
	droppedWindow = 5 * time.Second
	// navBurst navigations of a tab's main frame within navWindow (each a
	// new one, not a redirect's next hop) are a page navigating itself.
	navBurst  = 10
	navWindow = 5 * time.Second
	// maxElements bounds a page's document: one that grows past it (a
	// runaway DOM) is cut off before it takes the machine's memory.
	maxElements = 1_000_000
	// silentEvidence: a call that gave up on a page whose question has
	// waited this long is the second witness; the page is cut off then,
	// without waiting for silentAfter.
	silentEvidence  = 4 * time.Second
	evidenceStretch = 2
)

// watch is the watchdog's view of one tab.
type watch struct {
	ping    pinger
	loading atomic.Bool  // its document has not fired its load event yet
	navAt   atomic.Int64 // when the main frame last asked for a document (Unix ns)
	size    atomic.Int64 // the elements of its document, as the last answer said
	cut     atomic.Bool  // buddi cut the page off
	events  window       // console lines and uncaught errors
	dropped window       // console lines the page guard dropped
	navs    window       // documents the main frame asked for
}

// building reports whether the tab's document may still be being built
// (its load event has not fired): a call that gave up on it is no
// evidence against it. Not when the page had already stopped answering,
// for silentEvidence, when the latest navigation began: that page is the
// one being left (a script that never yields holds the navigation away
// from it), and the call that gave up on the navigation is evidence.
func (w *watch) building() bool {
	if !w.loading.Load() {
		return false
	}
	nav := time.Unix(0, w.navAt.Load())
	return !w.ping.lastOK().Before(nav.Add(-silentEvidence))
}

// pinger keeps one question in flight to something that should answer at
// once, and says how long it has gone unanswered.
type pinger struct {
	mu       sync.Mutex
	sent     time.Time // when the question in flight was sent; zero when none is
	answered time.Time // when the last question was answered (or failed)
	ok       time.Time // when the last question was answered without failing
	err      error     // how the last question failed, when it failed
}

// quiet says how long the question in flight has waited (0: none is),
// and when the last one was answered.
func (p *pinger) quiet(now time.Time) (time.Duration, time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sent.IsZero() {
		return 0, p.answered
	}
	return now.Sub(p.sent), p.answered
}

// silent sends a question when none is in flight (ask runs on a goroutine
// of its own) and says how long the one in flight has waited, and how the
// last one failed, if it did.
func (p *pinger) silent(now time.Time, ask func() error) (time.Duration, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.sent.IsZero() {
		return now.Sub(p.sent), p.err
	}
	p.sent = now
	go func() {
		err := ask()
		p.mu.Lock()
		p.sent, p.answered, p.err = time.Time{}, time.Now(), err
		if err == nil {
			p.ok = p.answered
		}
		p.mu.Unlock()
	}()
	return 0, p.err
}

// lastOK is when the last question was answered without failing.
func (p *pinger) lastOK() time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ok
}

// window counts events in fixed windows.
type window struct {
	mu    sync.Mutex
	start time.Time
	n     int
}

// hit counts one event and returns how many the current window of length
// w holds.
func (c *window) hit(w time.Duration) int { return c.add(1, w) }

// add counts n events and returns how many the current window holds.
func (c *window) add(n int, w time.Duration) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if now := time.Now(); now.Sub(c.start) > w {
		c.start, c.n = now, 0
	}
	c.n += n
	return c.n
}

// watch starts the browser's watchdog; it ends when the browser closes or
// dies (and then tells d).
func (b *browser) watch(d *Driver) {
	go func() {
		s := b.pingSession()
		tick := time.NewTicker(watchEvery)
		defer tick.Stop()
		for {
			select {
			case <-b.stop:
				return
			case <-b.gone:
				d.died(b, "its browser closed")
				return
			case <-tick.C:
			}
			load := machineLoad()
			if why := b.checkSelf(s, load); why != "" {
				killProfile(b.profile)
				d.died(b, why)
				return
			}
			for _, t := range d.tabsIn(b) {
				t.check(load)
			}
		}
	}()
}

// pingSession is the browser-level session the watchdog asks the browser
// over: the gate's, or one of its own; nil when none opens.
func (b *browser) pingSession() pw.CDPSession {
	if b.gate != nil {
		return b.gate.s
	}
	br := b.bctx.Browser()
	if br == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), wedgedAfter)
	defer cancel()
	s, err := call(ctx, br.NewBrowserCDPSession)
	if err != nil {
		return nil
	}
	return s
}

// checkSelf asks the browser a question and says why it is to be killed
// and started again, if it is: its connection broke, or it has not
// answered for wedgedAfter.
func (b *browser) checkSelf(s pw.CDPSession, load float64) string {
	if s == nil {
		return ""
	}
	limit := scaled(wedgedAfter, load, wedgedStretch)
	quiet, err := b.ping.silent(time.Now(), func() error {
		ctx, cancel := context.WithTimeout(context.Background(), limit+watchEvery)
		defer cancel()
		_, err := call(ctx, func() (any, error) { return s.Send("Browser.getVersion", nil) })
		return err
	})
	switch {
	case err != nil && isClosed(err):
		return "its connection to buddi broke"
	case quiet > limit:
		return fmt.Sprintf("it did not answer for %d s", int(quiet.Seconds()))
	}
	return ""
}

// tabsIn lists the tabs every conversation has in b.
func (d *Driver) tabsIn(b *browser) []*tab {
	d.mu.Lock()
	convs := make([]*Tabs, 0, len(d.convs))
	for _, ts := range d.convs {
		convs = append(convs, ts)
	}
	d.mu.Unlock()
	var out []*tab
	for _, ts := range convs {
		ts.mu.Lock()
		for _, t := range ts.tabs {
			if t.b == b {
				out = append(out, t)
			}
		}
		ts.mu.Unlock()
	}
	return out
}

// check asks the page its question, and cuts it off when it has left the
// one in flight unanswered too long.
func (t *tab) check(load float64) {
	if t.closed.Load() || t.closing.Load() {
		return
	}
	s := t.session()
	if s == nil {
		return
	}
	limit := scaled(silentAfter, load, silentStretch)
	if t.watch.loading.Load() {
		limit *= 2 // a document still being built gets longer
	}
	quiet, _ := t.watch.ping.silent(time.Now(), func() error {
		ctx, cancel := context.WithTimeout(context.Background(), limit+watchEvery)
		defer cancel()
		v, err := call(ctx, func() (any, error) {
			return s.Send("Runtime.evaluate", map[string]any{"expression": sizeExpr, "returnByValue": true})
		})
		t.watch.size.Store(int64(resultNumber(v)))
		return err
	})
	switch size := t.watch.size.Load(); {
	case quiet > limit:
		t.cut(fmt.Sprintf("stopped answering for %d s", int(quiet.Seconds())))
	case size > maxElements:
		t.cut(fmt.Sprintf("grew its page to %d elements", size))
	}
}

// sizeExpr is the watchdog's question to a page: how many elements its
// document has (cheap: the browser keeps the count of a live list until
// the document changes).
const sizeExpr = "document.getElementsByTagName('*').length"

// resultNumber reads result.value of a Runtime.evaluate answer as a
// number, 0 when it is none.
func resultNumber(v any) float64 {
	m, _ := v.(map[string]any)
	r, _ := m["result"].(map[string]any)
	n, _ := r["value"].(float64)
	return n
}

// witness is told that a call on the page gave up waiting for it (err).
// It waits for the watchdog's next answer from the page (for at most
// silentEvidence of silence): a page that does not give it is cut off now,
// without waiting for silentAfter, and so is one whose answer says its
// document grew past maxElements. A page still loading is left to
// silentAfter: building a large document is no misbehaviour. It waits no
// longer than ctx, the call's.
func (t *tab) witness(ctx context.Context, err error) {
	switch drivers.CodeOf(err) {
	case drivers.CodeNotAnswering, drivers.CodeTimeout:
	default:
		return
	}
	if t.watch.building() {
		return
	}
	evidence := scaled(silentEvidence, machineLoad(), evidenceStretch)
	failed := time.Now()
	end := failed.Add(evidence + 2*watchEvery)
	if dl, ok := ctx.Deadline(); ok && dl.Before(end) {
		end = dl
	}
	for first := true; first || time.Now().Before(end) && !t.closing.Load(); first = false {
		quiet, answered := t.watch.ping.quiet(time.Now())
		switch {
		case quiet >= evidence:
			t.cut(fmt.Sprintf("stopped answering for %d s", int(quiet.Seconds())))
			return
		case answered.After(failed):
			if size := t.watch.size.Load(); size > maxElements {
				t.cut(fmt.Sprintf("grew its page to %d elements", size))
			}
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// session is the tab's own DevTools session, nil before it is set up.
func (t *tab) session() pw.CDPSession {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.cdp
}

// flooding counts a console line or uncaught error and reports whether
// the page is past floodLines in floodWindow; the first one past it cuts
// the page off. It runs on Playwright's dispatch goroutine.
func (t *tab) flooding() bool {
	n := t.watch.events.hit(floodWindow)
	if n == floodLines+1 {
		t.cut(fmt.Sprintf("logged more than %d console lines in %d s", floodLines, int(floodWindow.Seconds())))
	}
	return n > floodLines
}

// guardDropped reads the page guard's notice of the console lines it
// dropped (pageguard.js); a page past droppedBurst in droppedWindow is cut
// off. A page that writes the notice itself only cuts itself off.
func (t *tab) guardDropped(text string) {
	rest, ok := strings.CutPrefix(text, droppedNotice)
	if !ok {
		return
	}
	n, _ := strconv.Atoi(strings.SplitN(rest, " ", 2)[0])
	if before := t.watch.dropped.add(0, droppedWindow); before <= droppedBurst && before+n > droppedBurst {
		t.cut(fmt.Sprintf("logged more than %d console lines in %d s", droppedBurst, int(droppedWindow.Seconds())))
	}
	t.watch.dropped.add(n, droppedWindow)
}

// droppedNotice starts the page guard's notice of dropped console lines.
const droppedNotice = "buddi dropped "

// navigating counts a document the main frame asked for; the first past
// navBurst in navWindow cuts the page off.
func (t *tab) navigating() {
	t.watch.loading.Store(true)
	t.watch.navAt.Store(time.Now().UnixNano())
	if t.watch.navs.hit(navWindow) == navBurst+1 {
		t.cut(fmt.Sprintf("navigated itself more than %d times in %d s", navBurst, int(navWindow.Seconds())))
	}
}

// cut cuts the page off: it leaves its conversation's tabs at once, its
// conversation is told why on its next call, and the page is closed on a
// goroutine of its own, where a blank tab replaces it when it was the
// conversation's last (calls wait for that tab). It never blocks, so the
// dispatch goroutine may call it.
func (t *tab) cut(why string) {
	if t.closing.Load() || !t.watch.cut.CompareAndSwap(false, true) {
		return
	}
	ts := t.owner
	url := messages.Clip(t.page.URL(), 200)
	t.b.log.Warn("closed a page that stopped answering", "conversation", ts.conv, "tab", t.id, "url", url, "why", why)
	ts.setNote(fail(drivers.CodeUnresponsive, nil, fmt.Sprintf(
		"The page in tab %s (%s) %s, so buddi closed it to keep the browser answering; observe again to see this conversation's tabs, and do not open that page again.",
		t.id, url, why)))
	t.closing.Store(true)
	ts.forget(t)
	replacing := ts.replaceIfLast()
	go t.cutOff(replacing)
}

// replaceIfLast marks the conversation as waiting for a blank tab when it
// has none left; nil when it has tabs (or is closed).
func (ts *Tabs) replaceIfLast() chan struct{} {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.closed || len(ts.tabs) > 0 || ts.replacing != nil {
		return nil
	}
	ts.replacing = make(chan struct{})
	return ts.replacing
}

// cutOff opens the blank tab that replaces a page cut off (when
// replacing is set), then closes the page. A renderer busy in the page's
// own script takes Page.crash between two of its steps, and a crashed
// page closes at once.
func (t *tab) cutOff(replacing chan struct{}) {
	if replacing != nil {
		ts := t.owner
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		if _, err := ts.openTab(ctx); err != nil {
			t.b.log.Warn("no blank tab replaced a page cut off", "conversation", ts.conv, "err", err)
		}
		cancel()
		ts.mu.Lock()
		if ts.replacing == replacing { // else shut closed it
			ts.replacing = nil
			close(replacing)
		}
		ts.mu.Unlock()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if s := t.session(); s != nil && !t.crashed.Load() {
		c, stop := context.WithTimeout(ctx, 2*time.Second)
		_, _ = call(c, func() (any, error) { return s.Send("Page.crash", nil) })
		stop()
	}
	if err := t.close(ctx); err != nil {
		t.b.log.Warn("a page cut off did not close", "tab", t.id, "err", err)
	}
}
