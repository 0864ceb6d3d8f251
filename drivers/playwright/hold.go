package playwright

import (
	"sync"
	"time"
)

// A take-over stops what the agent's call was loading. Chromium's own stop
// (Page.stopLoading) is not safe at every moment: stopped while a visit to
// another site arrives in its new renderer, from its commit until the new
// document has loaded, the page never paints again (every capture, the
// owner's picture and the hand's screencast alike, waits forever) until a
// document is loaded in the tab. So the gate (intercept.go) also pauses
// the response of each of a tab's main-frame documents: while the tab is
// on hold, a document asked for is refused before it is sent and one
// answered is refused before the page has it; and a stop is made only
// when no document the gate let through is still arriving. A document
// that is arriving is left to load: the owner gets that page, painted,
// instead of the one before it.

// arriveWindow bounds how long a document whose response the gate let
// through counts as arriving: until, after its commit, the page has fired
// its load event and painted, or this long when it does not (a download, a
// response with no body, a page that never finishes loading). A page can
// load before it first paints, and a stop in between left it without a
// picture as well (1 of 16 take-overs on the phone here, the agent's act
// answered loaded just before). A loaded page whose first paint is not
// heard within paintGrace (one with nothing to paint, or heard before
// buddi listened) has arrived, as has one whose tab asks for another
// document.
const (
	arriveWindow = 10 * time.Second
	paintGrace   = time.Second
)

// hold is a tab's state for stops: who holds it (a take-over, an abandoned
// navigation), until when at most, and the document let through last.
type hold struct {
	mu        sync.Mutex
	n         int       // holders
	end       time.Time // no hold lasts past it
	commits   uint64    // main-frame commits, counted from the tab's own DevTools session
	arriving  uint64    // commits as the latest response was let through
	arriveEnd time.Time // until when that document counts as arriving
	loadAt    time.Time // when that document fired its load event, zero before
	paintSeen bool      // that document painted, or the tab asked for another since it loaded
}

// take holds the tab for at most d.
func (h *hold) take(d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.n++
	if end := time.Now().Add(d); end.After(h.end) {
		h.end = end
	}
}

// drop ends one take.
func (h *hold) drop() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.n > 0 {
		h.n--
	}
}

// held reports whether the tab is held. The caller holds h.mu.
func (h *hold) held(now time.Time) bool { return h.n > 0 && now.Before(h.end) }

// committed counts a commit of the tab's main frame.
func (h *hold) committed() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.commits++
}

// loaded notes the page's load event, and painted its first paint, of the
// document let through last once a commit came after it. (What the
// document before it did, heard late, is not counted: the tab's events
// come in order, and the new document's commit comes after its response
// was let through.)
func (h *hold) loaded() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.commits != h.arriving {
		h.loadAt = time.Now()
	}
}

func (h *hold) painted() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.commits != h.arriving {
		h.paintSeen = true
	}
}

// asked notes that the tab asks for a document: one that has loaded is
// no longer waited for to paint.
func (h *hold) asked() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.loadAt.IsZero() {
		h.paintSeen = true
	}
}

// refuses reports whether the tab is held, for a document asked for.
func (h *hold) refuses() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.held(time.Now())
}

// admit decides a document's response: refused while the tab is held,
// otherwise let through and counted as arriving (see inFlight).
func (h *hold) admit() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := time.Now()
	if h.held(now) {
		return false
	}
	h.arriving, h.arriveEnd = h.commits, now.Add(arriveWindow)
	h.loadAt, h.paintSeen = time.Time{}, false
	return true
}

// inFlight reports whether the document the gate let through last is
// still arriving: within arriveWindow, and not yet loaded, or loaded but
// neither painted nor paintGrace past its load.
func (h *hold) inFlight() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := time.Now()
	switch {
	case !now.Before(h.arriveEnd):
		return false
	case h.loadAt.IsZero():
		return true
	}
	return !h.paintSeen && now.Before(h.loadAt.Add(paintGrace))
}

// stopSafely stops what the tab is loading unless a document is arriving,
// which is left to load. The tab is held while it looks, so no response is
// let through between the look and the stop. Without a gate no response is
// paused and the stop is made as before.
func (t *tab) stopSafely() {
	if t.b.gate == nil {
		t.stopLoading()
		return
	}
	t.stops.take(abandonWindow)
	defer t.stops.drop()
	if t.stops.inFlight() {
		t.b.log.Debug("stop left out: a document is arriving", "tab", t.id)
		return
	}
	t.stopLoading()
}
