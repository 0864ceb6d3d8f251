package playwright_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/playwright"
	"github.com/buddi-dev/buddi/drivers/playwright/browsertest"
)

// Each hostile page buddi cuts off is closed: a call waiting on it, or the
// next, is told page_unresponsive with a sentence naming the tab (those
// before it, at most not_answering), and the conversation keeps a blank
// tab that works. The others are read like any page: the observation is
// of that page (its address, its text), not of a blank tab that replaced
// it, and its cost is bounded (a 6 MB title reads as 300 bytes). Cutting
// a page off leaves the browser up: a neighbour reads its own page after
// each cut (Page.crash sent to a cut page took the whole browser down
// about one time in two).
func TestHostilePagesAreClosedOrBounded(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	browsertest.ServeHostiles(s.mux)
	s.page("/calm", "Calm", "<p>A calm page.</p>")
	neighbour := openConv(t, d, t.Name()+"-neighbour")
	navigate(t, neighbour, s.URL+"/calm")
	for name, h := range browsertest.Hostiles {
		t.Run(name, func(t *testing.T) {
			tabs := openConv(t, d, t.Name())
			start := time.Now()
			_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Navigate, URL: s.URL + "/" + name})
			var obs *drivers.Observation
			// A page that misbehaves only grows as fast as the machine lets
			// it: observe until it is cut (or, for the others, read), within
			// a bound far past the watchdog's.
			for time.Since(start) < 3*time.Minute && (err == nil || drivers.CodeOf(err) == drivers.CodeNotAnswering) {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				obs, err = tabs.Observe(ctx, drivers.ObserveOptions{})
				cancel()
				if !h.Cut && err == nil {
					break
				}
			}
			if !h.Cut {
				if err != nil {
					t.Fatalf("%s: %v after %v", name, err, time.Since(start).Round(time.Millisecond))
				}
				if !strings.HasSuffix(obs.URL, "/"+name) || !strings.Contains(obs.Tree, h.Shows) {
					t.Fatalf("%s: the observation is of %s, without %q:\n%s", name, obs.URL, h.Shows, obs.Tree)
				}
				if len(obs.Title) > drivers.MaxTitle+len("…") {
					t.Fatalf("%s: a title of %d bytes", name, len(obs.Title))
				}
				return
			}
			wantCode(t, err, drivers.CodeUnresponsive)
			var de *drivers.Error
			if !errors.As(err, &de) || !strings.Contains(de.Message, "tab t1") {
				t.Fatalf("the sentence does not name the tab: %v", err)
			}
			t.Logf("%s: %s after %v", name, de.Message, time.Since(start).Round(time.Millisecond))
			obs = observe(t, tabs, drivers.ObserveOptions{})
			if obs.URL != "about:blank" || len(obs.Tabs) != 1 {
				t.Fatalf("after the cut: %s, %d tabs", obs.URL, len(obs.Tabs))
			}
			if obs, err := neighbour.Observe(testCtx(t), drivers.ObserveOptions{}); err != nil || !strings.HasSuffix(obs.URL, "/calm") {
				t.Fatalf("after %s was cut off, the neighbour's observe: %v", name, err)
			}
		})
	}
}

// A page whose script never yields, navigated away from before the
// watchdog closed it, holds the navigation until buddi closes it: the
// navigate is told that (page_unresponsive, naming the tab), not that a
// navigation failed.
func TestANavigateAwayFromASpinningPageIsToldItWasClosed(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	browsertest.ServeHostiles(s.mux)
	s.page("/a", "A", "<p>a page</p>")
	tabs := openConv(t, d, t.Name())
	if _, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Navigate, URL: s.URL + "/spin"}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(6 * time.Second) // the page spins 300 ms after it loaded; the watchdog's question waits
	_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Navigate, URL: s.URL + "/a"})
	t.Logf("the navigate answered: %v", err)
	wantCode(t, err, drivers.CodeUnresponsive)
	var de *drivers.Error
	if !errors.As(err, &de) || !strings.Contains(de.Message, "tab t1") {
		t.Fatalf("the sentence does not name the tab: %v", err)
	}
}

// The watchdog's question sent while buddi's own read of a large document
// is in flight waits behind that read: it is excused while the read is in
// flight and, when the read gave up (it goes on in the page), until
// OwnReadPatience after it began; not once the read ended well, and not
// when the question was sent before the read (it waits on the page's own
// script).
func TestAQuestionBehindBuddisOwnReadIsExcusedForABoundedTime(t *testing.T) {
	never := make(chan struct{})
	defer close(never)

	var w playwright.Watch
	w.Ask(time.Now(), never)
	end := w.Read()
	if w.Excused(time.Now()) {
		t.Fatal("a question sent before the read is excused")
	}
	end(errors.New("gave up"))

	var ok playwright.Watch
	end = ok.Read()
	ok.Ask(time.Now(), never)
	if !ok.Excused(time.Now()) {
		t.Fatal("a question sent during the read is not excused")
	}
	end(nil)
	if ok.Excused(time.Now()) {
		t.Fatal("a question still waiting after the read ended well is excused")
	}

	var gave playwright.Watch
	began := time.Now()
	end = gave.Read()
	gave.Ask(time.Now(), never)
	end(errors.New("gave up"))
	if !gave.Excused(time.Now()) {
		t.Fatal("a question behind a read that gave up is not excused")
	}
	if gave.Excused(began.Add(playwright.OwnReadPatience + time.Second)) {
		t.Fatal("a question behind a read that gave up is excused past the patience")
	}
}

// The agent's own navigations are not the page navigating itself: an
// agent going through more pages than the burst allows, fast, back and
// forth, keeps its tab.
func TestAnAgentsOwnFastNavigationsAreNotCut(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/a", "A", `<p>page a</p><a href="/b">to b</a>`)
	s.page("/b", "B", `<p>page b</p><a href="/a">to a</a>`)
	tabs := openConv(t, d, t.Name())
	for i := range 16 {
		u := s.URL + "/a"
		if i%2 == 1 {
			u = s.URL + "/b"
		}
		if _, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Navigate, URL: u}); err != nil {
			t.Fatalf("navigate %d: %v", i+1, err)
		}
	}
	for _, k := range []drivers.Kind{drivers.Back, drivers.Back, drivers.Forward, drivers.Forward} {
		if _, err := tabs.Do(testCtx(t), &drivers.Action{Kind: k}); err != nil {
			t.Fatalf("%s: %v", k, err)
		}
	}
	obs := observe(t, tabs, drivers.ObserveOptions{})
	if !strings.HasSuffix(obs.URL, "/b") || !strings.Contains(obs.Tree, "page b") {
		t.Fatalf("after the agent's own navigations the tab shows %s:\n%s", obs.URL, obs.Tree)
	}
	// Links the agent follows are its doing too, however fast it clicks.
	for i := range 16 {
		next := "to a"
		if i%2 == 1 {
			next = "to b"
		}
		if _, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Click, Target: target(t, obs, "link", next)}); err != nil {
			t.Fatalf("click %d (%s): %v", i+1, next, err)
		}
		obs = observe(t, tabs, drivers.ObserveOptions{})
	}
	if !strings.HasSuffix(obs.URL, "/b") || !strings.Contains(obs.Tree, "page b") {
		t.Fatalf("after the agent's own clicks the tab shows %s:\n%s", obs.URL, obs.Tree)
	}
}

// A page that has not answered since its load event is taken as one
// still being laid out, whatever size its last answer gave: that answer
// counted a document the parser was still building (CI saw a page of
// 200,000 elements cut off on a call's evidence, its renderer laying it
// out for 25 s on a loaded machine, because an answer from its parse had
// read it as small). Once it answers after the event, its size is what
// that answer says, and a small page is not settling (one that spins
// then is cut off on the first call's evidence).
func TestAnAnswerFromBeforeTheLoadEventDoesNotSizeThePage(t *testing.T) {
	at := time.Now()
	step := func() time.Time { at = at.Add(time.Millisecond); return at }

	var w playwright.Watch
	w.Navigated(step())
	w.Answered(step(), 3000)
	if w.Settling() {
		t.Fatal("a page still loading is settling")
	}
	w.Loaded(step())
	if !w.Settling() {
		t.Fatal("a page whose only answer came during its parse (3,000 elements) is not settling after its load event")
	}
	w.Answered(step(), 200_000)
	if w.Settling() {
		t.Fatal("a large page that answered after its load event is still settling")
	}

	var small playwright.Watch
	small.Navigated(step())
	small.Loaded(step())
	small.Answered(step(), 12)
	if small.Settling() {
		t.Fatal("a small page that answered after its load event is settling")
	}
}
