package playwright_test

import (
	"net/http"
	"testing"

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
	// The popup's first request is not intercepted (see guard.go): the
	// popup is closed as soon as it is reported.
	if len(out.Tabs) != 1 || out.Tabs[0].URL != s.URL+"/start" {
		t.Fatalf("the blocked popup is still open: %+v (%s)", out.Tabs, s.allHits())
	}
	out = mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: target(t, obs, "button", "Fine popup")})
	if out.Result != drivers.Navigated || len(out.Tabs) != 2 || out.Tabs[1].ID == "t1" || !out.Tabs[1].Active || out.URL != s.URL+"/fine" {
		t.Fatalf("the allowed popup: %+v", out)
	}
}
