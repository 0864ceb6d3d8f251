package playwright

import (
	"context"
	"time"

	"github.com/buddi-dev/buddi/drivers/cdp"
)

// Chromium can leave a page whose load was stopped just as it arrived in a
// new renderer (a visit to another site, stopped by a take-over) never
// painting again: every capture of it, the owner's picture and the hand's
// screencast alike, waits forever, while its document still answers
// scripts. It stays so until something loads a document in the tab. So a
// tab whose load or navigation was stopped (Interrupt, stopAbandoned) is
// checked once the stops are over, and a page that does not paint is
// loaded again at its address. Such a page had just arrived: nothing was
// done on it yet.

// paintWait bounds the check's picture of one pixel, stretched by the
// machine's load: a page that paints makes one well within it.
const paintWait = time.Second

// stopsSettle is how long after the tab's last stop the check begins: a
// take-over's stop is followed by more while the call it abandoned still
// runs (stopAbandoned), for up to abandonWindow.
const stopsSettle = 250 * time.Millisecond

// onePixel is the check's capture: one pixel, the cheapest picture.
var onePixel = cdp.CaptureScreenshot{Format: "jpeg", Quality: 1, Clip: &cdp.Viewport{Width: 1, Height: 1, Scale: 1}}

// checkPaints runs the check on its own goroutine, once the tab's stops
// are over; one at a time per tab.
func (t *tab) checkPaints() {
	if !t.checking.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer t.checking.Store(false)
		for end := time.Now().Add(abandonWindow + stopsSettle); time.Now().Before(end); {
			quiet := time.Since(time.Unix(0, t.stoppedAt.Load()))
			if quiet >= stopsSettle {
				break
			}
			time.Sleep(stopsSettle - quiet)
		}
		if t.paints() {
			return
		}
		t.loadAgain()
	}()
}

// paints says whether the browser captures a pixel of the page within
// paintWait; a capture that fails at once (the page went, its document
// changed) is no sign of a page that stopped painting.
func (t *tab) paints() bool {
	s := t.session()
	if s == nil || t.closed.Load() || t.closing.Load() {
		return true
	}
	ctx, cancel := context.WithTimeout(context.Background(), underLoad(paintWait))
	defer cancel()
	_, err := call(ctx, func() (any, error) { return send(s, onePixel) })
	return err == nil || ctx.Err() == nil
}

// loadAgain loads the tab's current entry again, as buddi's own
// navigation (it does not count as the page navigating itself).
func (t *tab) loadAgain() {
	s := t.session()
	if s == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	raw, err := call(ctx, func() (any, error) { return send(s, cdp.NavigationHistory{}) })
	url := currentEntry(raw)
	if err != nil || url == "" {
		return
	}
	t.watch.asking()
	if _, err := call(ctx, func() (any, error) { return send(s, cdp.Navigate{URL: url}) }); err != nil {
		return
	}
	t.b.log.Warn("a page stopped painting after its load was stopped as it arrived; it was loaded again",
		"conversation", t.owner.conv, "tab", t.id)
}

// currentEntry is the address of the current entry of a
// Page.getNavigationHistory answer, "" when it has none.
func currentEntry(raw any) string {
	m, _ := raw.(map[string]any)
	i, _ := m["currentIndex"].(float64)
	entries, _ := m["entries"].([]any)
	if i < 0 || int(i) >= len(entries) {
		return ""
	}
	e, _ := entries[int(i)].(map[string]any)
	url, _ := e["url"].(string)
	return url
}
