package playwright_test

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/handwire"
)

// A pin drives the page it pinned even after another tab became active,
// and is gone, saying why, when that page closes.
func TestAPinStaysOnItsPageAndIsGoneWhenItCloses(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/a", "A", `<style>body{margin:0}</style><button style="position:absolute;left:0;top:0;width:200px;height:100px"
		onclick="document.getElementById('out').textContent='pressed here'">Press</button><p id="out" style="margin-top:150px">not yet</p>`)
	s.page("/b", "B", `<p>the other tab</p>`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/a")
	pin, raw := pinActive(t, tabs)
	mustDo(t, tabs, &drivers.Action{Kind: drivers.TabAction, TabOp: "new"})
	navigate(t, tabs, s.URL+"/b")
	press(t, raw, 50, 50)
	mustDo(t, tabs, &drivers.Action{Kind: drivers.TabAction, TabOp: "switch", TabID: "t1"})
	if obs := observe(t, tabs, drivers.ObserveOptions{}); !strings.Contains(obs.Tree, "pressed here") {
		t.Fatalf("the press did not reach the pinned page:\n%s", obs.Tree)
	}
	mustDo(t, tabs, &drivers.Action{Kind: drivers.TabAction, TabOp: "close", TabID: "t1"})
	select {
	case <-pin.Gone():
	case <-time.After(30 * time.Second):
		t.Fatal("the pin outlived its page")
	}
	if w := pin.Why(); w == nil || w.Code != messages.CodeTabGone {
		t.Fatalf("the pin is gone because %+v, want tab_gone", w)
	}
	if err := raw.Input(testCtx(t), &handwire.Input{Kind: handwire.Move, X: 1, Y: 1}); err == nil {
		t.Fatal("input reached a pin whose page closed")
	}
}

// A pin is gone when its page comes to stand at an address the URL rules
// refuse without a request the rules could stop (here the page's own
// history.pushState, on a press of the owner's hand), saying why.
func TestAPinIsGoneWhenItsPageMovesToARefusedAddress(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/a", "A", `<style>body{margin:0}</style><button style="position:absolute;left:0;top:0;width:200px;height:100px"
		onclick="history.pushState(null, '', '/blocked/elsewhere')">Move</button>`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/a")
	pin, raw := pinActive(t, tabs)
	select {
	case <-pin.Gone():
		t.Fatalf("the pin is gone before its page moved: %+v", pin.Why())
	default:
	}
	press(t, raw, 50, 50)
	select {
	case <-pin.Gone():
	case <-time.After(30 * time.Second):
		t.Fatal("the pin stayed on a page at a refused address")
	}
	if w := pin.Why(); w == nil || w.Code != messages.CodeHostNotListed {
		t.Fatalf("the pin is gone because %+v, want host_not_listed", w)
	}
}

// pinActive pins the conversation's active page for a hand, unpinned when
// the test ends.
func pinActive(t *testing.T, tabs drivers.Tabs) (drivers.Pinned, drivers.RawInput) {
	t.Helper()
	sc, ok := drivers.ScreencastOf(tabs)
	if !ok {
		t.Fatal("the playwright tabs have no screencast")
	}
	pin, err := sc.Pin(testCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pin.Unpin)
	raw, ok := drivers.RawInputOf(pin)
	if !ok {
		t.Fatal("the pin takes no raw input")
	}
	return pin, raw
}

// press presses and releases the left button at x, y through the hand's input.
func press(t *testing.T, raw drivers.RawInput, x, y float64) {
	t.Helper()
	for _, in := range []*handwire.Input{
		{Kind: handwire.Down, X: x, Y: y, Button: handwire.ButtonLeft},
		{Kind: handwire.Up, X: x, Y: y, Button: handwire.ButtonLeft},
	} {
		if err := raw.Input(testCtx(t), in); err != nil {
			t.Fatal(err)
		}
	}
}

// A pin lays its page out at a phone's size (the page's own width follows,
// and the first picture after the fit is of the new size) and gives it back
// the agent's size.
func TestAPinFitsItsPageToAPhoneAndGivesTheAgentsSizeBack(t *testing.T) {
	tabs, pin, fit := pinnedPage(t, `<p id="w">?</p><script>const show = () => document.getElementById('w').textContent = 'width ' + innerWidth;
show(); addEventListener('resize', show);</script>`)
	if err := fit.Fit(testCtx(t), 375, 700); err != nil {
		t.Fatal(err)
	}
	// The page is still: Chromium makes no other picture than the first.
	frames := make(chan handwire.FrameHeader, 8)
	if err := pin.Cast(testCtx(t), drivers.CastOptions{Quality: 40, MaxWidth: 400, MaxHeight: 800}, func(f *drivers.CastFrame) {
		select {
		case frames <- f.Header:
		default:
		}
		f.Release()
	}); err != nil {
		t.Fatal(err)
	}
	select {
	case h := <-frames:
		if h.PageWidth != 375 || h.PageHeight != 700 {
			t.Fatalf("the first picture after the fit is of a %dx%d page, not of the 375x700 it was laid out at", h.PageWidth, h.PageHeight)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the fitted page sent no picture")
	}
	if err := pin.StopCast(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	pageSays(t, tabs, "width 375", "fitted to a phone")
	if err := fit.Unfit(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	pageSays(t, tabs, "width 1280", "given back")
}

// A page whose script declares a global innerWidth of its own (minified
// code may) hides the window's from every read in the page's world. The
// fit reads the size where the page's globals are not: the page is laid
// out for the phone, and the agent gets its own size back, not the one the
// script made up.
func TestAPinFitsAPageWhoseScriptDeclaresItsOwnSize(t *testing.T) {
	tabs, _, fit := pinnedPage(t, `<p id="w">?</p><script>var innerWidth = 5, innerHeight = 5;
const show = () => document.getElementById('w').textContent = 'width ' + document.documentElement.clientWidth;
show(); addEventListener('resize', show);</script>`)
	if err := fit.Fit(testCtx(t), 375, 700); err != nil {
		t.Fatalf("a page whose script declares innerWidth was not fitted: %v", err)
	}
	pageSays(t, tabs, "width 375", "fitted to a phone")
	if err := fit.Unfit(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	pageSays(t, tabs, "width 1280", "given back")
}

// pinnedPage opens a conversation on a page of body and pins it for the
// hand, which must be able to lay it out for a phone.
func pinnedPage(t *testing.T, body string) (drivers.Tabs, drivers.Pinned, drivers.Fitter) {
	t.Helper()
	s := newSite(t)
	s.page("/a", "A", body)
	tabs := openConv(t, sharedDriver(t), t.Name())
	navigate(t, tabs, s.URL+"/a")
	pin, _ := pinActive(t, tabs)
	fit, ok := drivers.FitterOf(pin)
	if !ok {
		t.Fatal("the agents' browser cannot lay a pinned page out for a phone")
	}
	return tabs, pin, fit
}

// pageSays waits until the page shows text (it hears of a new size by a
// resize event, in its own time), and fails saying what it shows instead.
func pageSays(t *testing.T, tabs drivers.Tabs, text, when string) {
	t.Helper()
	waitText(t, tabs, text)
	if obs := observe(t, tabs, drivers.ObserveOptions{}); !strings.Contains(obs.Tree, text) {
		t.Fatalf("%s, the page says:\n%s", when, obs.Tree)
	}
}

// waitText waits (within the action's own bound) until the page shows
// text; what the page shows then is checked by the caller.
func waitText(t *testing.T, tabs drivers.Tabs, text string) {
	t.Helper()
	_, _ = tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.WaitFor, Wait: &drivers.WaitCond{Text: text}, Timeout: 10 * time.Second})
}

// A screencast asked for while its page is between two documents starts
// once the new one is there: Chromium answers a start in that moment with
// "Not attached to an active page", which is not the page going away.
func TestAScreencastAskedForAsItsPageNavigatesStarts(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/a", "A", `<p>a page to come back to</p>`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/a")
	pin, _ := pinActive(t, tabs)
	frames := make(chan struct{}, 1)
	sink := func(*drivers.CastFrame) {
		select {
		case frames <- struct{}{}:
		default:
		}
	}
	// Between two sites, so that each visit swaps the page's renderer.
	sites := []string{strings.Replace(s.URL, "127.0.0.1", "localhost", 1), s.URL}
	for i := range 12 {
		went := make(chan error, 1)
		go func() {
			_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Navigate, URL: sites[i%2] + "/a?visit=" + strconv.Itoa(i)})
			went <- err
		}()
		// Started again and again until the visit ends, so that some start
		// meets the moment between the two documents.
		for n := 0; ; n++ {
			o := drivers.CastOptions{Quality: 60, MaxWidth: 400 + n%2, MaxHeight: 400}
			if err := pin.Cast(testCtx(t), o, sink); err != nil {
				t.Fatalf("visit %d, start %d: the screencast did not start: %v", i, n, err)
			}
			select {
			case err := <-went:
				if err != nil {
					t.Fatalf("visit %d: %v", i, err)
				}
			default:
				continue
			}
			break
		}
	}
	select {
	case <-frames:
	case <-time.After(30 * time.Second):
		t.Fatal("no picture came after the last start")
	}
}

// A fit made while the agent's page from another site is on its way lays
// out that page once it arrives: the new size was given to the page before
// it, and the one arriving came at the agent's size.
func TestAFitMadeAsAnotherSitesPageArrivesLaysThatPageOut(t *testing.T) {
	s := newSite(t)
	s.page("/a", "A", `<p>here first</p>`)
	asked := make(chan struct{}, 1)
	s.mux.HandleFunc("/b", func(w http.ResponseWriter, r *http.Request) {
		asked <- struct{}{}
		time.Sleep(300 * time.Millisecond)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<title>B</title><p id="w">?</p><script>const show = () => document.getElementById('w').textContent = 'width ' + innerWidth;
show(); addEventListener('resize', show);</script>`)
	})
	tabs := openConv(t, sharedDriver(t), t.Name())
	navigate(t, tabs, s.URL+"/a")
	pin, _ := pinActive(t, tabs)
	fit, _ := drivers.FitterOf(pin)
	other := strings.Replace(s.URL, "127.0.0.1", "localhost", 1)
	went := make(chan error, 1)
	go func() {
		_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Navigate, URL: other + "/b"})
		went <- err
	}()
	<-asked
	if err := fit.Fit(testCtx(t), 375, 700); err != nil {
		t.Fatalf("the fit made as the page arrived: %v", err)
	}
	if err := <-went; err != nil {
		t.Fatal(err)
	}
	pageSays(t, tabs, "width 375", "fitted as it arrived")
}

// A take-over that stopped the agent's visit to another site before its
// page came, then a fit: the page still there is laid out for the phone.
func TestAFitAfterAStoppedVisitToAnotherSiteLaysThePageOut(t *testing.T) {
	s := newSite(t)
	s.page("/a", "A", `<p id="w">?</p><script>const show = () => document.getElementById('w').textContent = 'width ' + innerWidth;
show(); addEventListener('resize', show);</script>`)
	asked := make(chan struct{}, 1)
	s.mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		asked <- struct{}{}
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	tabs := openConv(t, sharedDriver(t), t.Name())
	navigate(t, tabs, s.URL+"/a")
	other := strings.Replace(s.URL, "127.0.0.1", "localhost", 1)
	went := make(chan error, 1)
	go func() {
		_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Navigate, URL: other + "/slow"})
		went <- err
	}()
	<-asked
	tabs.Interrupt()
	wantCode(t, <-went, drivers.CodeInterrupted)
	pin, _ := pinActive(t, tabs)
	fit, _ := drivers.FitterOf(pin)
	if err := fit.Fit(testCtx(t), 375, 700); err != nil {
		t.Fatalf("the fit after the stopped visit: %v", err)
	}
	pageSays(t, tabs, "width 375", "fitted after the stopped visit")
}
