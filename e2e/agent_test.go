package e2e_test

import (
	"sync"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/playwright/browsertest"
)

type in = map[string]any

func target1(ref string) in { return in{"ref": ref} }

// setup serves buddi with the site as a preview origin, an agent and a task.
func setup(t *testing.T, s *site, steps int, convs ...string) (*buddi, string) {
	t.Helper()
	b := serve(t, "", "BUDDI_PREVIEW_ORIGINS="+s.URL)
	token := b.AddAgent(t, "ada", false)
	for _, c := range convs {
		b.Task(t, "ada", c, steps)
	}
	return b, token
}

func ok(t *testing.T, r *daemontest.Reply) map[string]any {
	t.Helper()
	if !r.OK {
		t.Fatalf("%s: %s", r.Code(), r.Error.Message)
	}
	return r.Map()
}

var code = daemontest.WantCode

func TestE2EMultiStepTask(t *testing.T) {
	s := newSite(t)
	b, tok := setup(t, s, 80, "c1")
	res := ok(t, b.Act(t, tok, "c1", in{"action": "navigate", "url": s.URL + "/"}))
	if res["outcome"] != "loaded" {
		t.Fatalf("navigate outcome %v, want loaded", res["outcome"])
	}
	obs := b.Observe(t, tok, "c1")
	res = ok(t, b.Act(t, tok, "c1", in{"action": "click", "observation": daemontest.ID(obs), "target": target1(daemontest.Ref(t, obs, "link", "Next page"))}))
	if res["outcome"] != "navigated" || res["url"] != s.URL+"/next" {
		t.Fatalf("click gave %v at %v, want navigated to /next", res["outcome"], res["url"])
	}
	ok(t, b.Act(t, tok, "c1", in{"action": "navigate", "url": s.URL + "/form"}))
	obs = b.Observe(t, tok, "c1")
	id := daemontest.ID(obs)
	ok(t, b.Act(t, tok, "c1", in{"action": "fill", "observation": id, "target": target1(daemontest.Ref(t, obs, "textbox", "Name")), "value": "Ada Lovelace"}))
	ok(t, b.Act(t, tok, "c1", in{"action": "select", "observation": id, "target": target1(daemontest.Ref(t, obs, "combobox", "Colour")), "values": []string{"Blue"}}))
	res = ok(t, b.Act(t, tok, "c1", in{"action": "click", "observation": id, "target": target1(daemontest.Ref(t, obs, "button", "Send"))}))
	if res["outcome"] != "navigated" {
		t.Fatalf("submit click gave %v, want navigated", res["outcome"])
	}
	if n := s.submissions.Load(); n != 1 {
		t.Fatalf("the server received %d submissions, want exactly 1", n)
	}
	// The click submitted: the old observation no longer authorises input.
	code(t, b.Act(t, tok, "c1", in{"action": "click", "observation": id, "target": target1(daemontest.Ref(t, obs, "button", "Send"))}), "stale_observation")
	if n := s.submissions.Load(); n != 1 {
		t.Fatalf("the server received %d submissions after a refused click, want 1", n)
	}
	obs = b.Observe(t, tok, "c1")
	if text, _ := obs["text"].(string); !contains(text, "Thanks") || !contains(text, "Observed ") {
		t.Fatalf("the observation after submitting does not show the thanks page:\n%s", text)
	}
}

func TestE2ERedirectBetweenObserveAndActRefuses(t *testing.T) {
	s := newSite(t)
	b, tok := setup(t, s, 80, "c1")
	ok(t, b.Act(t, tok, "c1", in{"action": "navigate", "url": s.URL + "/moving"}))
	obs := b.Observe(t, tok, "c1")
	ref := daemontest.Ref(t, obs, "link", "Stay here")
	close(s.move)
	ok(t, b.Act(t, tok, "c1", in{"action": "wait_for", "wait": in{"url": "/next"}, "timeoutMs": 10000}))
	r := b.Act(t, tok, "c1", in{"action": "click", "observation": daemontest.ID(obs), "target": target1(ref)})
	if r.OK {
		t.Fatalf("a click on a ref observed before the page moved was dispatched: %s", r.Result)
	}
	if r.Code() != "stale_ref" && r.Code() != "stale_observation" {
		t.Fatalf("code %q, want stale_ref or stale_observation", r.Code())
	}
	if s.count("/") != 0 {
		t.Fatalf("the old ref was applied to the new page (Back home was followed)")
	}
}

func TestE2EPauseRulesAndBudget(t *testing.T) {
	s := newSite(t)
	b, tok := setup(t, s, 8, "c1")
	ok(t, b.Act(t, tok, "c1", in{"action": "navigate", "url": s.URL + "/"})) // step 1
	obs := b.Observe(t, tok, "c1")                                           // 2
	for i := 0; i < 3; i++ {
		r := b.Act(t, tok, "c1", in{"action": "click", "observation": daemontest.ID(obs), "target": target1("e9999")})
		code(t, r, "stale_ref")
		if i < 2 { // each refusal brings the page as it is now, a step each: 3, 4
			obs = daemontest.Evidence(t, r)
		}
	}
	code(t, b.Act(t, tok, "c1", in{"action": "observe"}), "paused")
	b.Must(t, "POST", "/api/browser/resume", in{"conversation": "c1"})
	b.Observe(t, tok, "c1")                                        // step 5
	ok(t, b.Act(t, tok, "c1", in{"action": "dom"}))                // 6
	ok(t, b.Act(t, tok, "c1", in{"action": "console"}))            // 7
	shot := ok(t, b.Act(t, tok, "c1", in{"action": "screenshot"})) // 8
	if w, h := shot["width"].(float64), shot["height"].(float64); max(w, h) > 1280 || w == 0 {
		t.Fatalf("screenshot %vx%v; want a longest edge of at most 1280", w, h)
	}
	code(t, b.Act(t, tok, "c1", in{"action": "observe"}), "budget_spent")
	r := b.Act(t, tok, "c1", in{"action": "observe"})
	code(t, r, "no_task")
}

func TestE2ETakeOverDuringASlowLoadKeepsThePage(t *testing.T) {
	s := newSite(t)
	b, tok := setup(t, s, 80, "c1")
	ok(t, b.Act(t, tok, "c1", in{"action": "navigate", "url": s.URL + "/next"}))
	done := make(chan *daemontest.Reply, 1)
	go func() { done <- b.Act(t, tok, "c1", in{"action": "navigate", "url": s.URL + "/slow"}) }()
	select {
	case <-s.slowStarted:
	case <-time.After(20 * time.Second):
		t.Fatal("the slow page was never requested")
	}
	b.Must(t, "POST", "/api/browser/takeover", in{"conversation": "c1"})
	select {
	case r := <-done:
		code(t, r, "taken_over")
	case <-time.After(10 * time.Second):
		t.Fatal("the navigation in flight was not abandoned at take-over")
	}
	select {
	case <-s.slowDone:
	case <-time.After(10 * time.Second):
		t.Fatal("the pending load was not stopped at take-over")
	}
	b.Must(t, "POST", "/api/browser/resume", in{"conversation": "c1"})
	obs := b.Observe(t, tok, "c1")
	if obs["url"] != s.URL+"/next" {
		t.Fatalf("after take-over the page is %v, want the page kept (%s/next)", obs["url"], s.URL)
	}
}

func TestE2EEightConversationsInTheirOwnTabs(t *testing.T) {
	s := newSite(t)
	convs := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	b, tok := setup(t, s, 80, convs...)
	paths := []string{"/", "/next", "/form", "/login", "/", "/next", "/form", "/login"}
	var wg sync.WaitGroup
	for i, c := range convs {
		wg.Add(1)
		go func(c, path string) {
			defer wg.Done()
			if r := b.Act(t, tok, c, in{"action": "navigate", "url": s.URL + path}); !r.OK {
				t.Errorf("%s: navigate: %s", c, r.Code())
				return
			}
			obs := b.Observe(t, tok, c)
			if obs["url"] != s.URL+path {
				t.Errorf("%s sees %v, want its own %s", c, obs["url"], path)
			}
			// The tab list appears only when a conversation holds more
			// than the tab it is on: none here, whatever the others hold.
			if tabs, _ := obs["tabs"].([]any); len(tabs) != 0 || obs["tab"] == "" {
				t.Errorf("%s sees tab %v and others %v, want its own one alone", c, obs["tab"], tabs)
			}
		}(c, paths[i])
	}
	wg.Wait()
	b.Must(t, "POST", "/api/browser/release", in{"conversation": "a"})
	obs := b.Observe(t, tok, "b")
	if obs["url"] != s.URL+"/next" {
		t.Fatalf("releasing a disturbed b: it sees %v", obs["url"])
	}
}

func TestE2EStopSurvivesKill9(t *testing.T) {
	s := newSite(t)
	dir := browsertest.TempDir(t)
	b := serve(t, dir, "BUDDI_PREVIEW_ORIGINS="+s.URL)
	tok := b.AddAgent(t, "ada", false)
	b.Task(t, "ada", "c1", 80)
	ok(t, b.Act(t, tok, "c1", in{"action": "navigate", "url": s.URL + "/"}))
	b.Must(t, "POST", "/api/browser/stop", nil)
	code(t, b.Act(t, tok, "c1", in{"action": "observe"}), "stopped")
	b.kill9(t)
	b = serve(t, dir, "BUDDI_PREVIEW_ORIGINS="+s.URL)
	code(t, b.Act(t, tok, "c1", in{"action": "navigate", "url": s.URL + "/next"}), "stopped")
	if s.count("/next") != 0 {
		t.Fatal("a page was loaded while access was stopped")
	}
	b.Must(t, "POST", "/api/browser/resume", in{"all": true})
	ok(t, b.Act(t, tok, "c1", in{"action": "navigate", "url": s.URL + "/next"}))
}
