package playwright_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/playwright"
	"github.com/buddi-dev/buddi/drivers/playwright/browsertest"
)

func TestNavigateObserveClickLink(t *testing.T) {
	d := browsertest.New(t)
	s := newSite(t)
	s.page("/a", "Page A", `<h1>A</h1><a href="/b">Next page</a>`)
	s.page("/b", "Page B", `<h1>B</h1>`)
	tabs := openConv(t, d, "c1")
	if out := navigate(t, tabs, s.URL+"/a"); out.Result != drivers.Loaded {
		t.Fatalf("navigate: %+v", out)
	}
	obs := observe(t, tabs, drivers.ObserveOptions{})
	if obs.Title != "Page A" || obs.Tab != "t1" || len(obs.Tabs) != 1 {
		t.Fatalf("observation: %+v", obs)
	}
	out := mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: target(t, obs, "link", "Next page")})
	if out.Result != drivers.Navigated || out.URL != s.URL+"/b" || !out.Changed || out.Title != "Page B" {
		t.Fatalf("click: %+v", out)
	}
}

func TestFillAndSubmitOnce(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/form", "Form", `<form method="post" action="/done"><label>Query <input name="q"></label><button type="submit">Send</button></form>`)
	var got []string
	s.mux.HandleFunc("POST /done", func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.FormValue("q"))
		fmt.Fprint(w, "<title>Done</title>thanks")
	})
	tabs := openConv(t, d, "c1")
	navigate(t, tabs, s.URL+"/form")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	box := target(t, obs, "textbox", "Query")
	if out := mustDo(t, tabs, &drivers.Action{Kind: drivers.Fill, Target: box, Value: "blue whales"}); out.Changed {
		t.Fatalf("fill: %+v", out)
	}
	out := mustDo(t, tabs, &drivers.Action{Kind: drivers.Submit, Target: box})
	if out.Result != drivers.Navigated || !out.Changed || out.Title != "Done" {
		t.Fatalf("submit: %+v", out)
	}
	if n := s.hit("POST /done"); n != 1 || len(got) != 1 || got[0] != "blue whales" {
		t.Fatalf("server saw %d submissions: %q", n, got)
	}
}

func TestSamePageClick(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/p", "Counter", `<button onclick="document.getElementById('n').textContent++">Add</button><p id="n">0</p><a href="#below">Jump</a><p id="below">below</p>`)
	tabs := openConv(t, d, "c1")
	navigate(t, tabs, s.URL+"/p")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	add := target(t, obs, "button", "Add")
	for range 3 {
		out := mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: add})
		if out.Result != drivers.SamePage || out.Changed {
			t.Fatalf("click: %+v", out)
		}
	}
	if obs := observe(t, tabs, drivers.ObserveOptions{}); !strings.Contains(obs.Tree, "paragraph: 3") {
		t.Fatalf("the counter did not count three clicks:\n%s", obs.Tree)
	}
	if n := s.hit("GET /p"); n != 1 {
		t.Fatalf("the page loaded %d times", n)
	}
}

// A click that stays on the page answers with the title its handlers left:
// one set at once, one set in a promise, one set by a handler that stopped
// the click's propagation. The page's own script clicking an element all
// the while (untrusted clicks) does not answer for the agent's. At least one
// of the clicks answered with the title read in the page as it ended
// (the read armed before it), not by a read of its own after it.
func TestSamePageClickAnswersWithTheTitleItsHandlersSet(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/t", "Start", `<button onclick="document.title = 'now ' + (++n)">Now</button>`+
		`<button onclick="Promise.resolve().then(() => { document.title = 'promised ' + (++n); })">Later</button>`+
		`<button onclick="event.stopPropagation(); document.title = 'stopped ' + (++n)">Stop</button>`+
		`<button id="q">Quiet</button>`+
		`<script>let n = 0; setInterval(() => document.getElementById('q').click(), 3);</script>`)
	tabs := openConv(t, d, "c1")
	navigate(t, tabs, s.URL+"/t")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	early := playwright.EarlyTitles(tabs)
	n := 0
	for range 2 {
		for _, c := range []struct{ button, title string }{{"Now", "now"}, {"Later", "promised"}, {"Stop", "stopped"}} {
			n++
			out := mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: target(t, obs, "button", c.button)})
			if want := fmt.Sprintf("%s %d", c.title, n); out.Result != drivers.SamePage || out.Title != want {
				t.Fatalf("click %d on %s: %s with title %q, want same_page with %q", n, c.button, out.Result, out.Title, want)
			}
		}
	}
	if got := playwright.EarlyTitles(tabs) - early; got == 0 {
		t.Fatalf("none of %d clicks answered with the title read as it ended", n)
	}
}

// The element changed between observe and act: the driver refuses and
// dispatches nothing.
func TestStaleFingerprintRefused(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/p", "Stale", `<a id="go" href="/first">Go</a>
<button onclick="document.getElementById('go').href = '/second'">Retarget</button>
<button onclick="document.getElementById('box').replaceWith(Object.assign(document.createElement('button'), {id: 'box', textContent: 'Buy'}))">Replace</button>
<button id="box" onclick="fetch('/bought')">Buy</button>
<button onclick="document.getElementById('ren').textContent = 'Delete all'">Rename</button>
<button id="ren" onclick="fetch('/renamed')">Save</button>`)
	tabs := openConv(t, d, "c1")
	navigate(t, tabs, s.URL+"/p")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	link, buy, save := target(t, obs, "link", "Go"), target(t, obs, "button", "Buy"), target(t, obs, "button", "Save")
	for _, b := range []string{"Retarget", "Replace", "Rename"} {
		if out := mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: target(t, obs, "button", b)}); out.Result != drivers.SamePage {
			t.Fatalf("click %s: %+v", b, out)
		}
	}
	for _, tg := range []*drivers.Target{link, buy, save} {
		_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Click, Target: tg})
		wantCode(t, err, drivers.CodeTargetGone)
	}
	if s.hit("GET /first")+s.hit("GET /second")+s.hit("GET /bought")+s.hit("GET /renamed") != 0 {
		t.Fatalf("a stale click reached the server: %s", s.allHits())
	}
}

// A ref on a button stays good while unrelated text on the page changes.
func TestTickerDoesNotStaleRefs(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/p", "Ticker", `<p id="t">0</p><script>setInterval(() => document.getElementById('t').textContent++, 20)</script>
<button onclick="fetch('/ok')">Order</button>`)
	tabs := openConv(t, d, "c1")
	navigate(t, tabs, s.URL+"/p")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	time.Sleep(300 * time.Millisecond) // let the ticker tick; not a timing assertion
	mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: target(t, obs, "button", "Order")})
	mustDo(t, tabs, &drivers.Action{Kind: drivers.WaitFor, Wait: &drivers.WaitCond{Load: true}})
}

// The page moved on (here by a meta refresh to a twin page) between
// observe and act: the old ref is refused and nothing is clicked.
func TestRedirectBetweenObserveAndAct(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/r", "Twin", `<meta http-equiv="refresh" content="1;url=/r2"><a href="/clicked">Continue</a>`)
	s.page("/r2", "Twin", `<a href="/clicked">Continue</a>`)
	tabs := openConv(t, d, "c1")
	navigate(t, tabs, s.URL+"/r")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	link := target(t, obs, "link", "Continue")
	mustDo(t, tabs, &drivers.Action{Kind: drivers.WaitFor, Wait: &drivers.WaitCond{URL: "/r2"}})
	_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Click, Target: link})
	wantCode(t, err, drivers.CodeTargetGone)
	if n := s.hit("GET /clicked"); n != 0 {
		t.Fatalf("the stale link was followed")
	}
}
