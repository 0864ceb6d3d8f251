package playwright

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/cdp"
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
	// closeGrace is how long a page cut off has to close before it is
	// crashed; closing one took at most half a second here.
	closeGrace = 3 * time.Second
	// maxElements bounds a page's document: one that grows past it (a
	// runaway DOM) is cut off before it takes the machine's memory.
	maxElements = 1_000_000
	// silentEvidence: a call that gave up on a page whose question has
	// waited this long is the second witness; the page is cut off then,
	// without waiting for silentAfter.
	silentEvidence  = 4 * time.Second
	evidenceStretch = 2
	// ownReadPatience: a question that waits behind buddi's own read of
	// the page (the renderer runs one script at a time, and reading a
	// document of 200,000 elements on a loaded machine takes it tens of
	// seconds) is no evidence while that read is in flight, nor, when the
	// read gave up, until this long (or the page's own bound, when
	// longer) after the read began: the read still runs in the page after
	// buddi stopped waiting for it. Then the page is cut off if its
	// question still waits: a page whose script started spinning just as
	// buddi's read was sent waits this long at most.
	ownReadPatience = 30 * time.Second
	// bigDocument: a document of this many elements takes a loaded
	// renderer seconds to lay out or to read, and only such a document
	// is given the patience above (and that of a document being laid
	// out): a page that stops answering on a small one is spinning.
	bigDocument = 20_000
	// freeWait is how long a read waits, on an idle machine, for the page
	// to answer the question that tells its renderer is free.
	freeWait = time.Second
)

// watch is the watchdog's view of one tab.
type watch struct {
	ping    pinger
	reading atomic.Int64 // when buddi's own read of the page in flight began (Unix ns); 0 when none is
	gaveUp  atomic.Int64 // when the latest of buddi's reads that gave up on the page began (Unix ns)
	loading atomic.Bool  // its document has not fired its load event yet
	loaded  atomic.Int64 // when its document last fired its load event (Unix ns)
	navAt   atomic.Int64 // when the main frame last asked for a document (Unix ns)
	size    atomic.Int64 // the elements of its document, as the last answer said
	cut     atomic.Bool  // buddi cut the page off
	events  window       // console lines and uncaught errors
	dropped window       // console lines the page guard dropped
	navs    window       // documents the main frame asked for
	asked   atomic.Int32 // navigations buddi itself started and the main frame has not asked for yet (at most maxAsked)
	touched atomic.Int64 // when the agent last put input into the page (Unix ns); 0 once a navigation was put down to it
}

// gestureWindow is how long after the agent's input (a click, a key, a
// choice in a list) a document the main frame asks for is that input's
// doing, as a link followed, not the page navigating itself; stretched by
// the machine's load. One input excuses one document.
const gestureWindow = 10 * time.Second

// touching notes the agent's input into the page.
func (w *watch) touching() { w.touched.Store(time.Now().UnixNano()) }

// byGesture takes the agent's latest input, if it is recent enough for the
// navigation that just began to be its doing.
func (w *watch) byGesture() bool {
	at := w.touched.Load()
	if at == 0 || time.Since(time.Unix(0, at)) > underLoad(gestureWindow) {
		return false
	}
	return w.touched.CompareAndSwap(at, 0)
}

// maxAsked bounds the navigations buddi started that the watch excuses
// from the burst of a page navigating itself: one per navigate, back or
// forward, not piling up when one asked for no document (a fragment).
const maxAsked = 2

// asking notes that buddi starts a navigation of the tab (the agent's
// navigate, back or forward): its document does not count as the page
// navigating itself.
func (w *watch) asking() {
	for {
		n := w.asked.Load()
		if n >= maxAsked || w.asked.CompareAndSwap(n, n+1) {
			return
		}
	}
}

// ours takes one navigation buddi started, if any is waiting.
func (w *watch) ours() bool {
	for {
		n := w.asked.Load()
		if n <= 0 {
			return false
		}
		if w.asked.CompareAndSwap(n, n-1) {
			return true
		}
	}
}

// building reports whether the tab's document may still be being built
// (its load event has not fired): a call that gave up on it is no
// evidence against it. Not when the page had already stopped answering,
// for silentEvidence, when the latest navigation began: that page is the
// one being left (a script that never yields holds the navigation away
// from it), and the call that gave up on the navigation is evidence.
//
// A document that fired its load event but has not answered a question
// since may be a large one still being laid out (200,000 elements take a
// loaded renderer many seconds after their load event): see settling.
func (w *watch) building() bool {
	if !w.loading.Load() {
		return w.settling()
	}
	nav := time.Unix(0, w.navAt.Load())
	return !w.ping.lastOK().Before(nav.Add(-silentEvidence))
}

// settling reports whether the document fired its load event and has not
// answered a question since. Its size is then not known: an answer from
// before the event counted a document still being parsed (a page of
// 200,000 elements read as a few thousand, or as none), and the renderer
// may be laying out a large one. The watchdog asks its question the
// moment the event fires (loadedNow), so a small page that is free
// answers within milliseconds; one that spins at once is cut off only at
// the longer bound (bounds) rather than on a call's evidence.
func (w *watch) settling() bool {
	loaded := w.loaded.Load()
	return !w.loading.Load() && loaded != 0 && w.ping.lastOK().UnixNano() < loaded
}

// loadedNow records the document's load event and asks the page its
// question at once (when none is in flight), so that what settling
// tells of the page rests on an answer from after the event. It runs
// on Playwright's dispatch goroutine: the question goes on a goroutine
// of its own.
func (t *tab) loadedNow() {
	now := time.Now()
	t.watch.loaded.Store(now.UnixNano())
	t.watch.loading.Store(false)
	if s := t.session(); s != nil && !t.closed.Load() && !t.closing.Load() {
		limit, patience := t.bounds(machineLoad())
		t.watch.ask(now, t.question(s, limit+patience+2*watchEvery))
	}
}

// question is the watchdog's question to the page over s, giving up
// after wait, which is past any verdict (a question that gave up counts
// as answered); its answer is the document's size.
func (t *tab) question(s pw.CDPSession, wait time.Duration) func() error {
	return func() error {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		size, err := sizeOf(ctx, s)
		t.watch.size.Store(size)
		return err
	}
}

// sizeOf asks the page over s how many elements its document has (0 when
// it did not answer).
func sizeOf(ctx context.Context, s pw.CDPSession) (int64, error) {
	v, err := call(ctx, func() (any, error) {
		return send(s, cdp.Evaluate{Expression: sizeExpr, ReturnByValue: true})
	})
	return int64(resultNumber(v)), err
}

// reads is called before one of buddi's own reads of the page; the
// returned func is called with how it ended. When the page answers a
// question of its own first (within freeWait), its renderer is free and
// runs the read next: until the read ends, a question the watchdog sends
// waits behind buddi's read, not behind the page's script, and is excused
// (excused) when the document is large (bigDocument). A page that does
// not answer first (its script spins) gets no excuse, nor does a small
// document (reading it takes no time), which is read at once, as the
// page's last answer measured it. While the watchdog's question waits
// behind an earlier read of buddi's that gave up (and goes on in the
// page), or a document has not answered since its load event (settling),
// the read waits for the page's answer as long as ctx lets it,
// rather than pile a read behind that work; err says it did not come.
func (t *tab) reads(ctx context.Context) (func(err error), error) {
	s := t.session()
	if s == nil {
		return func(error) {}, nil
	}
	_, patience := t.bounds(machineLoad())
	behindOwn := t.watch.excused(time.Now(), patience) || t.watch.settling()
	if !behindOwn && t.watch.size.Load() < bigDocument {
		return func(error) {}, nil
	}
	c, cancel := ctx, context.CancelFunc(func() {})
	if !behindOwn {
		c, cancel = context.WithTimeout(ctx, underLoad(freeWait))
	}
	size, err := sizeOf(c, s)
	cancel()
	switch {
	case err != nil && behindOwn:
		return nil, err
	case err != nil:
		return func(error) {}, nil
	}
	t.watch.ping.answeredOK(time.Now())
	t.watch.size.Store(size)
	if size < bigDocument {
		return func(error) {}, nil
	}
	return t.watch.mark(), nil
}

// mark marks one of buddi's reads of the page in flight until the
// returned func is called with how it ended.
func (w *watch) mark() func(err error) {
	start := time.Now().UnixNano()
	w.reading.Store(start)
	return func(err error) {
		if err != nil {
			w.gaveUp.Store(start)
		}
		w.reading.CompareAndSwap(start, 0)
	}
}

// ask sends the watchdog's question when none is in flight (ask runs on
// a goroutine of its own), noting the read of buddi's it waits behind.
func (w *watch) ask(now time.Time, ask func() error) time.Duration {
	quiet, _ := w.ping.silent(now, w.reading.Load(), ask)
	return quiet
}

// excused reports whether the question in flight waits behind buddi's own
// read of the page, not behind the page's own script: it was sent while
// that read was in flight, and the read still is, or it gave up (and goes
// on in the page) less than patience ago. A read that ended well ended in
// the page too: a question still waiting then waits on the page.
func (w *watch) excused(now time.Time, patience time.Duration) bool {
	by := w.ping.behind()
	if by == 0 {
		return false
	}
	if w.reading.Load() == by {
		return true
	}
	return w.gaveUp.Load() == by && now.Before(time.Unix(0, by).Add(patience))
}

// check asks the page its question, and cuts it off when it has left the
// one in flight unanswered too long (not counting while it waits behind
// buddi's own read of the page: see ownReadPatience).
func (t *tab) check(load float64) {
	if t.closed.Load() || t.closing.Load() {
		return
	}
	s := t.session()
	if s == nil {
		return
	}
	limit, patience := t.bounds(load)
	now := time.Now()
	quiet := t.watch.ask(now, t.question(s, limit+patience+2*watchEvery))
	switch size := t.watch.size.Load(); {
	case quiet > limit && !t.watch.excused(now, patience):
		t.b.log.Info("the watchdog's question went unanswered", "tab", t.id, "quiet", quiet.Round(time.Millisecond), "limit", limit, "load", load)
		t.cut(fmt.Sprintf("stopped answering for %d s", int(quiet.Seconds())))
	case size > maxElements:
		t.cut(fmt.Sprintf("grew its page to %d elements", size))
	}
}

// bounds are how long the page may leave its question unanswered now, and
// how long after one of buddi's own reads began a question waiting behind
// it is excused.
func (t *tab) bounds(load float64) (limit, patience time.Duration) {
	limit = scaled(silentAfter, load, silentStretch)
	if t.watch.loading.Load() || t.watch.settling() {
		limit *= 2 // a document still being built gets longer
	}
	return limit, max(limit, ownReadPatience)
}

// sizeExpr is the watchdog's question to a page: how many elements its
// document has (cheap: the browser keeps the count of a live list until
// the document changes).
const sizeExpr = "document.getElementsByTagName('*').length"

// resultValue is result.value of a Runtime.evaluate answer, nil when it
// has none.
func resultValue(v any) any {
	m, _ := v.(map[string]any)
	r, _ := m["result"].(map[string]any)
	return r["value"]
}

// resultNumber reads result.value of a Runtime.evaluate answer as a
// number, 0 when it is none.
func resultNumber(v any) float64 {
	n, _ := resultValue(v).(float64)
	return n
}

// witness is told that a call on the page gave up waiting for it (err).
// It waits for the watchdog's next answer from the page (for at most
// silentEvidence of silence): a page that does not give it is cut off now,
// without waiting for silentAfter, and so is one whose answer says its
// document grew past maxElements. A page still loading is left to
// silentAfter: building a large document is no misbehaviour; so is one
// whose question waits behind buddi's own read (a read of a large
// document that gave up goes on in the page). It waits no longer than
// ctx, the call's.
func (t *tab) witness(ctx context.Context, err error) {
	switch drivers.CodeOf(err) {
	case drivers.CodeNotAnswering, drivers.CodeTimeout:
	default:
		return
	}
	if t.watch.building() {
		return
	}
	load := machineLoad()
	_, patience := t.bounds(load)
	evidence := scaled(silentEvidence, load, evidenceStretch)
	failed := time.Now()
	end := failed.Add(evidence + 2*watchEvery)
	if dl, ok := ctx.Deadline(); ok && dl.Before(end) {
		end = dl
	}
	for first := true; first || time.Now().Before(end) && !t.closing.Load(); first = false {
		now := time.Now()
		quiet, answered := t.watch.ping.quiet(now)
		switch {
		case t.watch.excused(now, patience):
			return
		case quiet >= evidence:
			t.b.log.Info("a call that gave up witnessed the page's silence", "tab", t.id, "quiet", quiet.Round(time.Millisecond), "evidence", evidence, "load", load)
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

// navigating counts a document the main frame asked for on its own (not
// one buddi's navigate, back or forward asked for, nor one that followed
// the agent's input); the first past navBurst in navWindow cuts the page
// off. A loaded machine stretches the window: a page that navigates itself
// every few milliseconds gets through fewer than two documents a second on
// two cores running twelve times their work. Only the page's own
// navigations count, so an agent that works fast is never taken for it.
func (t *tab) navigating() {
	t.watch.size.Store(0) // the next answer measures the new document
	t.watch.loading.Store(true)
	t.watch.navAt.Store(time.Now().UnixNano())
	if t.watch.ours() || t.watch.byGesture() {
		return
	}
	window := underLoad(navWindow)
	if t.watch.navs.hit(window) == navBurst+1 {
		t.cut(fmt.Sprintf("navigated itself more than %d times in %d s", navBurst, int(window.Seconds())))
	}
}
