package playwright_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
)

func TestCheckURLBlocksAndThePageStays(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/start", "Start", `<a href="/blocked/direct">Direct</a> <a href="/hop">Hop</a> <a href="/blocked-coded">Coded</a>
<button onclick="window.open('/blocked/popup')">Popup</button> <button onclick="window.open('/fine')">Fine popup</button>`)
	s.page("/fine", "Fine", `fine`)
	s.mux.HandleFunc("/hop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/blocked/after-hop", http.StatusFound)
	})
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/start")

	_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Navigate, URL: s.URL + "/blocked/typed"})
	wantCode(t, err, drivers.CodeNotAllowed)
	_, err = tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Navigate, URL: s.URL + "/hop"})
	wantCode(t, err, drivers.CodeNotAllowed)

	obs := observe(t, tabs, drivers.ObserveOptions{})
	if obs.URL != s.URL+"/start" {
		t.Fatalf("the tab left the page: %s", obs.URL)
	}
	cases := map[string]drivers.Code{"Direct": drivers.CodeNotAllowed, "Hop": drivers.CodeNotAllowed, "Coded": "site_not_approved"}
	for name, code := range cases {
		_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Click, Target: target(t, obs, "link", name)})
		wantCode(t, err, code)
		obs = observe(t, tabs, drivers.ObserveOptions{})
		if obs.URL != s.URL+"/start" || obs.Title != "Start" {
			t.Fatalf("after %s the tab is at %s (%q)", name, obs.URL, obs.Title)
		}
	}
	if n := s.hit("GET /blocked/direct") + s.hit("GET /blocked/after-hop") + s.hit("GET /blocked/typed") + s.hit("GET /blocked-coded"); n != 0 {
		t.Fatalf("blocked requests reached the server: %s", s.allHits())
	}
}

func TestBlockedPopupIsClosed(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/start", "Start", `<button onclick="window.open('/blocked/popup')">Popup</button> <button onclick="window.open('/fine')">Fine popup</button>`)
	s.page("/fine", "Fine", `fine`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/start")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Click, Target: target(t, obs, "button", "Popup")})
	wantCode(t, err, drivers.CodeNotAllowed)
	mustDo(t, tabs, &drivers.Action{Kind: drivers.WaitFor, Wait: &drivers.WaitCond{Load: true}})
	out := mustDo(t, tabs, &drivers.Action{Kind: drivers.TabAction, TabOp: "list"})
	if len(out.Tabs) != 1 || out.Tabs[0].URL != s.URL+"/start" {
		t.Fatalf("the blocked popup is still open: %+v (%s)", out.Tabs, s.allHits())
	}
	out = mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: target(t, obs, "button", "Fine popup")})
	if out.Result != drivers.Navigated || len(out.Tabs) != 2 || out.Tabs[1].ID == "t1" || !out.Tabs[1].Active || out.URL != s.URL+"/fine" {
		t.Fatalf("the allowed popup: %+v", out)
	}
}

// A link that opens a new tab to a refused URL sends nothing: the popup's
// first request pauses at the browser and is checked before it leaves, so
// the server never sees it, nor the profile's cookies with it.
func TestBlankTargetLinkToRefusedURLSendsNothing(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.mux.HandleFunc("/start", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: "profile-cookie", Path: "/"})
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><title>Start</title><a href="/blocked/new-tab" target="_blank">New tab</a>
<a href="/hop-blank" target="_blank">Hop tab</a>`))
	})
	s.mux.HandleFunc("/hop-blank", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/blocked/after-hop-tab", http.StatusFound)
	})
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/start")
	for _, name := range []string{"New tab", "Hop tab"} {
		obs := observe(t, tabs, drivers.ObserveOptions{})
		_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Click, Target: target(t, obs, "link", name)})
		if drivers.CodeOf(err) != drivers.CodeNotAllowed {
			t.Fatalf("%s: got %v, want not_allowed", name, err)
		}
		out := mustDo(t, tabs, &drivers.Action{Kind: drivers.TabAction, TabOp: "list"})
		if len(out.Tabs) != 1 || out.Tabs[0].URL != s.URL+"/start" {
			t.Fatalf("after %s the tabs are %+v", name, out.Tabs)
		}
	}
	if n := s.hit("GET /blocked/new-tab") + s.hit("GET /blocked/after-hop-tab"); n != 0 {
		t.Fatalf("a refused popup's request reached the server: %s", s.allHits())
	}
}

// A page opening windows in a loop gets no more than drivers.MaxTabs tabs
// for its conversation: the rest close at once. An agent's new tab past
// the bound is refused with a sentence.
func TestAConversationHoldsAtMostMaxTabs(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/start", "Start", `<script>
let n = 0;
const id = setInterval(() => {
  window.open('/fine?' + n);
  if (++n === 20) { clearInterval(id); fetch('/opened-all'); }
}, 50);
</script>`)
	s.page("/fine", "Fine", `fine`)
	s.page("/opened-all", "Done", `done`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/start")
	end := time.Now().Add(2 * time.Minute) // a background tab's timers are slowed
	for s.hit("GET /opened-all") == 0 {
		if time.Now().After(end) {
			t.Fatalf("the page did not open its 20 windows: %s", s.allHits())
		}
		time.Sleep(100 * time.Millisecond)
	}
	out := mustDo(t, tabs, &drivers.Action{Kind: drivers.TabAction, TabOp: "list"})
	if len(out.Tabs) != drivers.MaxTabs {
		t.Fatalf("%d tabs after the page opened 20 windows, want the bound, %d", len(out.Tabs), drivers.MaxTabs)
	}
	_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.TabAction, TabOp: "new"})
	wantCode(t, err, drivers.CodeTooManyTabs)
}
