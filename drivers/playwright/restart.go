package playwright

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
)

// A conversation outlives its browser. When the browser dies or stops
// answering, the driver starts another (start.go) and each conversation of
// the one before gets its tabs back in it, at the addresses they had, with
// their ids; its next call is told, once, that the browser restarted, and
// calls after that find the tabs reopened.

// savedTab is a tab as the conversation had it when its browser died.
type savedTab struct {
	id, url string
	active  bool
	at      time.Time
}

// Bounds of reopening.
const (
	// lostKept is how long a tab that closed on its own is remembered, in
	// case its browser is dying: the pages close a moment before the
	// context does.
	lostKept = 5 * time.Second
	// reopenWait bounds reopening one conversation's tabs: each waits for
	// its document to commit, not for its load.
	reopenWait = 20 * time.Second
	// noteWait is how long a call that failed as its page or browser went
	// away waits to learn why: the watchdog, or the browser's death, says
	// so a moment after the call fails.
	noteWait = time.Second
)

// msgRestarted is what a conversation's next call is told after the
// browser restarted under it.
const msgRestarted = "The browser stopped (it crashed or stopped answering); buddi is starting it again with this conversation's tabs reopened at their addresses, and anything typed and not sent is gone. Observe again before acting (the observation waits for the browser)."

// remember keeps t, which closed without buddi closing it, for lostKept.
// The caller holds ts.mu.
func (ts *Tabs) remember(t *tab) {
	now := time.Now()
	ts.lost = slices.DeleteFunc(ts.lost, func(s savedTab) bool { return now.Sub(s.at) > lostKept })
	ts.lost = append(ts.lost, savedTab{id: t.id, url: t.page.URL(), active: ts.active == t, at: now})
}

// browserLost is told that the conversation's browser died: its next call
// is told so, and calls after it wait for the tabs to be reopened.
func (ts *Tabs) browserLost() {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.closed {
		return
	}
	ts.note = fail(drivers.CodeRestarted, nil, msgRestarted)
	if ts.rebound == nil {
		ts.rebound = make(chan struct{})
		ts.saved = ts.layout()
	}
}

// setNote keeps what the next call is told; a restart is not overwritten
// by a page closed in the browser that died.
func (ts *Tabs) setNote(e *drivers.Error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.note == nil || ts.note.Code != drivers.CodeRestarted {
		ts.note = e
	}
}

// takeNote returns the note and clears it. The caller holds ts.mu.
func (ts *Tabs) takeNote() *drivers.Error {
	n := ts.note
	ts.note = nil
	return n
}

// await answers a pending restart at once, without waiting for the tabs
// to be reopened; otherwise it waits, within ctx, until they are, and
// until a blank tab replaced one cut off.
func (ts *Tabs) await(ctx context.Context, owner bool) error {
	ts.mu.Lock()
	rebound, replacing := ts.rebound, ts.replacing
	var note *drivers.Error
	if ts.note != nil && ts.note.Code == drivers.CodeRestarted {
		note = ts.note
		if !owner { // the owner's picture leaves the news for the agent
			ts.takeNote()
		}
	}
	ts.mu.Unlock()
	if note != nil {
		return note
	}
	if rebound == nil {
		rebound = replacing
	}
	if rebound == nil {
		return nil
	}
	select {
	case <-rebound:
		return nil
	case <-ctx.Done():
		if ctx.Err() != nil && errors.Is(context.Cause(ctx), errInterrupted) {
			return interrupted()
		}
		return ts.d.stillStarting()
	}
}

// Ready waits, within ctx, until the conversation's tabs are usable:
// reopened in a new browser after a restart, or with a blank tab in place
// of the last one cut off. It waits for nothing while the conversation has
// news for its next call, which is told at once.
func (ts *Tabs) Ready(ctx context.Context) (time.Duration, error) {
	start := time.Now()
	ts.mu.Lock()
	news := ts.note != nil
	ts.mu.Unlock()
	if news {
		return 0, nil
	}
	return time.Since(start), ts.await(ctx, false)
}

// newsOfDeath waits, up to noteWait, for the news that the conversation's
// browser, found dead, was mourned: the browser reads as dead as soon as
// its context closed, and the watchdog gives each of its conversations the
// news a moment later. A call in between is told what happened to its
// pages (the browser restarted), not only that a browser is starting. Nil
// when no news came.
func (ts *Tabs) newsOfDeath(owner bool) *drivers.Error { return ts.awaitNote(owner, true) }

// explain turns the failure of a call into what happened to the page or
// the browser meanwhile, when something did: the note of a restart or of
// a page buddi closed. A failure that looks like the page or the browser
// going away waits a moment for that note.
func (ts *Tabs) explain(err error) error {
	if err == nil {
		return nil
	}
	if note := ts.awaitNote(false, wentAway(err)); note != nil {
		return note
	}
	return err
}

// awaitNote returns the conversation's note, taken unless the owner's call
// reads it (the agent's next call is told it); with wait, it waits up to
// noteWait for one to come. Nil when none came.
func (ts *Tabs) awaitNote(owner, wait bool) *drivers.Error {
	deadline := time.Now().Add(noteWait)
	for {
		ts.mu.Lock()
		note := ts.note
		if note != nil && !owner {
			ts.takeNote()
		}
		ts.mu.Unlock()
		if note != nil || !wait || time.Now().After(deadline) {
			return note
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// wentAway reports whether a call's failure may be its page or its
// browser going away: closed, crashed, or reported as gone or silent.
func wentAway(err error) bool {
	switch drivers.CodeOf(err) {
	case drivers.CodeTabGone, drivers.CodeNotAnswering, drivers.CodeNoBrowser:
		return true
	}
	return isClosed(err) || strings.Contains(err.Error(), "crashed")
}

// opened records how opening the conversation's first tab ended.
func (ts *Tabs) opened(error) {
	close(ts.first)
}

// waitOpened waits, within ctx, for the conversation's first tab, which
// another Open of it is opening.
func (ts *Tabs) waitOpened(ctx context.Context) error {
	select {
	case <-ts.first:
		return nil
	case <-ctx.Done():
		return abandoned(ctx)
	}
}

// reopen gives the conversation its tabs back in b, the new browser: each
// at the address it had, with its id, the active one active again. It
// takes the conversation's turn, so no call runs meanwhile.
func (ts *Tabs) reopen(b *browser) {
	ctx, cancel := context.WithTimeout(context.Background(), reopenWait)
	defer cancel()
	select {
	case ts.turn <- struct{}{}:
		defer func() { <-ts.turn }()
	case <-ctx.Done():
	}
	ts.mu.Lock()
	if ts.closed {
		ts.mu.Unlock()
		return
	}
	saved := ts.saved
	ts.tabs, ts.active, ts.lost, ts.saved, ts.b = nil, nil, nil, nil, b
	ts.mu.Unlock()
	var active *tab
	for _, s := range saved {
		t, err := ts.openTabAs(ctx, s.id)
		if err != nil {
			b.log.Warn("a tab was not reopened", "conversation", ts.conv, "tab", s.id, "err", err)
			continue
		}
		if s.active {
			active = t
		}
		if blank(s.url) || ts.checkURL(s.url) != nil {
			continue
		}
		_ = do(ctx, func() error {
			_, err := t.page.Goto(s.url, pw.PageGotoOptions{WaitUntil: pw.WaitUntilStateCommit, Timeout: ms(ctx, navTimeout)})
			return err
		})
	}
	ts.mu.Lock()
	if active != nil {
		ts.active = active
	}
	none := len(ts.tabs) == 0
	ts.mu.Unlock()
	if none {
		_, _ = ts.openTab(ctx)
	}
	ts.mu.Lock()
	if ts.rebound != nil {
		close(ts.rebound)
		ts.rebound = nil
	}
	ts.mu.Unlock()
	b.log.Info("reopened a conversation's tabs in the new browser", "conversation", ts.conv, "tabs", len(saved))
}

// layout is what to reopen: the tabs still listed and those lost as the
// browser died, in the order they opened, each once. The caller holds
// ts.mu.
func (ts *Tabs) layout() []savedTab {
	var out []savedTab
	seen := map[string]bool{}
	for _, t := range ts.tabs {
		out = append(out, savedTab{id: t.id, url: t.page.URL(), active: ts.active == t})
		seen[t.id] = true
	}
	for _, s := range ts.lost {
		if !seen[s.id] && time.Since(s.at) <= lostKept {
			out = append(out, s)
			seen[s.id] = true
		}
	}
	slices.SortFunc(out, func(a, b savedTab) int { return tabNumber(a.id) - tabNumber(b.id) })
	if !slices.ContainsFunc(out, func(s savedTab) bool { return s.active }) && len(out) > 0 {
		out[len(out)-1].active = true
	}
	return out
}

// tabNumber is n of a tab id tn.
func tabNumber(id string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(id, "t"))
	return n
}
