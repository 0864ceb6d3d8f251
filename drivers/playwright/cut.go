package playwright

import (
	"context"
	"fmt"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// Cutting a page off: the watchdog's rules (watchdog.go) decide a page
// must go; cut takes it out of its conversation at once and cutOff closes
// it, behind a blank tab when it was the conversation's last.

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
// replacing is set), then closes the page. Closing ends a renderer busy in
// the page's own script too: Chromium ends the process once its last page
// goes. Only a page that has not closed within closeGrace is crashed
// (Page.crash), then closed again; crashing every page cut off took the
// whole browser down now and then.
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
	first, stop := context.WithTimeout(ctx, underLoad(closeGrace))
	err := t.close(first)
	stop()
	if err == nil || t.closed.Load() {
		return
	}
	if s := t.session(); s != nil && !t.crashed.Load() {
		c, stop := context.WithTimeout(ctx, 2*time.Second)
		_, _ = call(c, func() (any, error) { return s.Send("Page.crash", nil) })
		stop()
	}
	if err := t.close(ctx); err != nil {
		t.b.log.Warn("a page cut off did not close", "tab", t.id, "err", err)
	}
}
