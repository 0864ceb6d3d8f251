package daemon_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, append(daemontest.Lifelong(),
		// The API client's idle-connection cleaner (BenchmarkActHotPath)
		// sleeps out MaxIdleConnDuration before it sees the connections
		// closed; its dialer's address cache lives as long as the process.
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.(*HostClient).connsCleaner"),
		goleak.IgnoreAnyFunction("github.com/valyala/fasthttp.(*TCPDialer).tcpAddrsClean"),
	)...)
}

// inputs counts inputs the sim driver dispatched, per conversation and kind.
type inputs struct {
	mu sync.Mutex
	n  map[string]int
}

func (in *inputs) hook(conv string, k drivers.Kind) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.n == nil {
		in.n = map[string]int{}
	}
	in.n[conv+"/"+string(k)]++
}

func (in *inputs) count(conv string, k drivers.Kind) int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.n[conv+"/"+string(k)]
}

// simOpts returns options whose profiles are sim drivers built from cfg.
func simOpts(cfg sim.Config, in *inputs) daemon.Options {
	if in != nil {
		cfg.OnInput = in.hook
	}
	return daemon.Options{Mode: sim.NewMode(cfg, 1)}
}

func setup(t *testing.T, o daemon.Options, conv string, steps int) (*daemontest.Daemon, string) {
	t.Helper()
	d := daemontest.Start(t, "", o)
	token := d.AddAgent(t, "ada", false)
	d.Task(t, "ada", conv, steps)
	return d, token
}

func act(t *testing.T, d *daemontest.Daemon, token, conv string, in map[string]any) *daemontest.Reply {
	t.Helper()
	return d.Act(t, token, conv, in)
}

var wantCode = daemontest.WantCode

func TestAgentLoopThroughTheAPI(t *testing.T) {
	var in inputs
	d, token := setup(t, simOpts(sim.Config{}, &in), "c1", 80)
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1"}), "")
	obs := d.Observe(t, token, "c1")
	if obs["url"] != "https://sim.localhost/p/1" {
		t.Fatalf("observed %v, want the page navigated to", obs["url"])
	}
	link := daemontest.Ref(t, obs, "link", "")
	r := act(t, d, token, "c1", map[string]any{"action": "click", "observation": daemontest.ID(obs), "target": map[string]any{"ref": link}})
	wantCode(t, r, "")
	if r.Map()["outcome"] != drivers.Navigated {
		t.Fatalf("clicking a link gave %v, want navigated", r.Map()["outcome"])
	}
	// The click navigated: the old observation is no longer good for input,
	// and the refusal brings the page as it is now (one step).
	r = act(t, d, token, "c1", map[string]any{"action": "click", "observation": daemontest.ID(obs), "target": map[string]any{"ref": link}})
	wantCode(t, r, "stale_observation")
	if ev := daemontest.Evidence(t, r); ev["url"] == obs["url"] {
		t.Fatalf("the evidence shows %v, the page before the click", ev["url"])
	}

	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/form/1"}), "")
	obs = d.Observe(t, token, "c1")
	box := daemontest.Ref(t, obs, "textbox", "")
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "fill", "observation": daemontest.ID(obs), "target": map[string]any{"ref": box}, "value": "ada@example.com"}), "")
	btn := daemontest.Ref(t, obs, "button", "")
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "submit", "observation": daemontest.ID(obs), "target": map[string]any{"ref": btn}}), "")
	if n := in.count("c1", drivers.Submit); n != 1 {
		t.Fatalf("the page received %d submissions, want exactly 1", n)
	}
	st := d.Tool(t, token, "browser.status", "c1", map[string]any{})
	if got := st.Map()["stepsLeft"]; got != float64(80-8) {
		t.Fatalf("status says %v steps left, want %d (seven acts and the refusal's observation)", got, 80-8)
	}
}

func TestStaleRefsPauseAfterThreeTargetingFailures(t *testing.T) {
	var in inputs
	d, token := setup(t, simOpts(sim.Config{}, &in), "c1", 80)
	act(t, d, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/2"})
	old := d.Observe(t, token, "c1")
	obs := d.Observe(t, token, "c1")
	link := daemontest.Ref(t, obs, "link", "")
	r := act(t, d, token, "c1", map[string]any{"action": "click", "observation": daemontest.ID(old), "target": map[string]any{"ref": link}})
	wantCode(t, r, "stale_observation")
	obs = daemontest.Evidence(t, r) // the refusal's fresh evidence is the latest observation now
	for i := 0; i < 3; i++ {
		r = act(t, d, token, "c1", map[string]any{"action": "click", "observation": daemontest.ID(obs), "target": map[string]any{"ref": "e99999"}})
		wantCode(t, r, "stale_ref")
		if i < 2 {
			obs = daemontest.Evidence(t, r)
		} else if r.Error.Observation != nil {
			t.Fatal("the refusal that paused the session brought evidence to act on")
		}
	}
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "click", "observation": daemontest.ID(obs), "target": map[string]any{"ref": link}}), "paused")
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "observe"}), "paused")
	if n := in.count("c1", drivers.Click); n != 0 {
		t.Fatalf("%d clicks reached the page, want none", n)
	}
	d.Must(t, "POST", "/api/browser/resume", map[string]any{"conversation": "c1"})
	// Resuming voids the evidence: the agent must observe first.
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "click", "observation": daemontest.ID(obs), "target": map[string]any{"ref": link}}), "stale_observation")
	obs = d.Observe(t, token, "c1")
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "click", "observation": daemontest.ID(obs), "target": map[string]any{"ref": daemontest.Ref(t, obs, "link", "")}}), "")
	if n := in.count("c1", drivers.Click); n != 1 {
		t.Fatalf("%d clicks reached the page, want 1", n)
	}
}

func TestBudgetEndsTheTaskWithASummary(t *testing.T) {
	d, token := setup(t, simOpts(sim.Config{}, nil), "c1", 3)
	for i := 0; i < 3; i++ {
		d.Observe(t, token, "c1")
	}
	r := act(t, d, token, "c1", map[string]any{"action": "observe"})
	wantCode(t, r, "budget_spent")
	r = act(t, d, token, "c1", map[string]any{"action": "observe"})
	wantCode(t, r, "no_task")
	if want := "after 3 of 3 steps"; !contains(r.Error.Message, want) {
		t.Fatalf("the ending says %q; want it to say %q", r.Error.Message, want)
	}
}

func TestExpiryEndsTheTask(t *testing.T) {
	d := daemontest.Start(t, "", simOpts(sim.Config{}, nil))
	token := d.AddAgent(t, "ada", false)
	tasks := d.Events(t, events.Filter{Kinds: messages.KindTask, Conversation: "c1"})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if r := d.Actors().Owner(ctx, &messages.StartTask{Agent: "ada", Conversation: "c1",
		Description: "short", Lifetime: 300 * time.Millisecond}); r.Error != nil {
		t.Fatalf("start task: %+v", r.Error)
	}
	d.Observe(t, token, "c1")
	ended := daemontest.Await(t, tasks, "for the task to end", func(ev messages.Event) bool {
		return ev.(*messages.TaskChanged).Task.State == messages.TaskEnded
	}).(*messages.TaskChanged)
	if !contains(ended.Task.EndReason, "its time ran out") {
		t.Fatalf("the task ended because %q", ended.Task.EndReason)
	}
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "observe"}), "no_task")
}

func TestTakeOverAbandonsTheActionInFlight(t *testing.T) {
	var in inputs
	d, token := setup(t, simOpts(sim.Config{LoadLatency: 30 * time.Second}, &in), "c1", 80)
	d.Observe(t, token, "c1")
	done := make(chan *daemontest.Reply, 1)
	go func() {
		done <- d.Act(t, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/3"})
	}()
	waitState(t, d, "c1", "working")
	d.Must(t, "POST", "/api/browser/takeover", map[string]any{"conversation": "c1"})
	r := <-done
	wantCode(t, r, "taken_over")
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "observe"}), "taken_over")
	d.Must(t, "POST", "/api/browser/resume", map[string]any{"conversation": "c1"})
	obs := d.Observe(t, token, "c1")
	if obs["url"] == "https://sim.localhost/p/3" {
		t.Fatal("the abandoned navigation committed; the page should have been kept")
	}
}

func TestStopAllSurvivesARestart(t *testing.T) {
	dir := t.TempDir()
	d := daemontest.Start(t, dir, simOpts(sim.Config{}, nil))
	token := d.AddAgent(t, "ada", false)
	d.Task(t, "ada", "c1", 80)
	d.Observe(t, token, "c1")
	d.Must(t, "POST", "/api/browser/stop", nil)
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "observe"}), "stopped")
	d.Stop(t)

	d = daemontest.Start(t, dir, simOpts(sim.Config{}, nil))
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "observe"}), "stopped")
	st := d.Tool(t, token, "browser.status", "c1", map[string]any{})
	if st.Map()["stopped"] != true {
		t.Fatalf("status after restart: %s; want stopped", st.Result)
	}
	d.Must(t, "POST", "/api/browser/resume", map[string]any{"all": true})
	d.Observe(t, token, "c1")
}

func TestCrashMidActionIsNotReplayed(t *testing.T) {
	var in inputs
	var crashed atomic.Bool
	o := simOpts(sim.Config{}, &in)
	o.Chaos = func() bool { return !crashed.Swap(true) } // crash once, on the first completion
	d := daemontest.Start(t, "", o)
	token := d.AddAgent(t, "ada", false)
	d.Task(t, "ada", "c1", 80)
	r := act(t, d, token, "c1", map[string]any{"action": "observe"})
	wantCode(t, r, "restarted")
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1"}), "")
	obs := d.Observe(t, token, "c1")
	link := daemontest.Ref(t, obs, "link", "")
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "click", "observation": daemontest.ID(obs), "target": map[string]any{"ref": link}}), "")
	if n := in.count("c1", drivers.Click); n != 1 {
		t.Fatalf("%d clicks reached the page, want exactly 1", n)
	}
	if d.Restarts.Load() != 1 {
		t.Fatalf("%d restarts recorded, want 1", d.Restarts.Load())
	}
}

func TestEightConversationsShareOneProfile(t *testing.T) {
	d := daemontest.Start(t, "", simOpts(sim.Config{}, nil))
	token := d.AddAgent(t, "ada", false)
	convs := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	for _, c := range convs {
		d.Task(t, "ada", c, 80)
	}
	r, err := d.Do("POST", "/api/tasks", d.Owner, map[string]any{"agent": "ada", "conversation": "i", "description": "ninth"})
	if err != nil || r.Code() != "too_many_sessions" {
		t.Fatalf("a ninth session gave %v %v, want too_many_sessions", r, err)
	}
	var wg sync.WaitGroup
	for i, c := range convs {
		wg.Add(1)
		go func(i int, c string) {
			defer wg.Done()
			url := "https://sim.localhost/p/" + string(rune('0'+i))
			if r := d.Act(t, token, c, map[string]any{"action": "navigate", "url": url}); !r.OK {
				t.Errorf("%s navigate: %s", c, r.Code())
			}
			obs := d.Observe(t, token, c)
			if obs["url"] != url {
				t.Errorf("%s sees %v, want its own page %s", c, obs["url"], url)
			}
			// An observation lists tabs only when there are others.
			if tabs, _ := obs["tabs"].([]any); len(tabs) != 0 || obs["tab"] == "" {
				t.Errorf("%s sees %d more tabs, want only its own one (%v)", c, len(tabs), obs["tab"])
			}
		}(i, c)
	}
	wg.Wait()
	d.Must(t, "POST", "/api/browser/release", map[string]any{"conversation": "a"})
	waitGone(t, d, "a")
	d.Task(t, "ada", "i", 80)
}

func TestBadInputIsRefusedWithACode(t *testing.T) {
	d, token := setup(t, simOpts(sim.Config{}, nil), "c1", 80)
	cases := map[string]struct {
		input any
		code  string
	}{
		"unknown action":     {map[string]any{"action": "teleport"}, "bad_input"},
		"unknown field":      {map[string]any{"action": "observe", "colour": "red"}, "bad_input"},
		"click without obs":  {map[string]any{"action": "click", "target": map[string]any{"ref": "e1"}}, "bad_input"},
		"bad ref":            {map[string]any{"action": "click", "observation": "o1.1", "target": map[string]any{"ref": "#submit"}}, "bad_input"},
		"navigate no url":    {map[string]any{"action": "navigate"}, "bad_input"},
		"navigate file":      {map[string]any{"action": "navigate", "url": "file:///etc/passwd"}, "scheme_not_allowed"},
		"navigate loopback":  {map[string]any{"action": "navigate", "url": "http://127.0.0.1:9/"}, "private_address"},
		"wait two":           {map[string]any{"action": "wait_for", "wait": map[string]any{"text": "a", "url": "b"}}, "bad_input"},
		"wait too long":      {map[string]any{"action": "wait_for", "wait": map[string]any{"text": "a"}, "timeoutMs": 60000}, "bad_input"},
		"press a macro":      {map[string]any{"action": "press", "observation": "o1.1", "key": "Control+Alt+Delete"}, "bad_input"},
		"script with typing": {map[string]any{"action": "script", "steps": []any{map[string]any{"action": "fill", "observation": "o", "target": map[string]any{"ref": "e1"}, "value": "x"}}}, "bad_input"},
		"input not object":   {"observe", "bad_input"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) { wantCode(t, d.Act(t, token, "c1", c.input), c.code) })
	}
	r, _ := d.Do("POST", "/api/tools/browser.act", "ba_wrong", map[string]any{"conversation": "c1", "input": map[string]any{"action": "observe"}})
	if r.Status != 401 || r.Code() != "unauthorized" {
		t.Fatalf("a wrong token gave HTTP %d %q, want 401 unauthorized", r.Status, r.Code())
	}
	wantCode(t, d.Act(t, token, "nobody", map[string]any{"action": "observe"}), "no_task")
	wantCode(t, d.Act(t, token, "bad conv!", map[string]any{"action": "observe"}), "bad_input")
}

func TestAgentAsksForATask(t *testing.T) {
	d := daemontest.Start(t, "", simOpts(sim.Config{}, nil))
	token := d.AddAgent(t, "ada", false)
	r := d.Tool(t, token, "browser.task", "c1", map[string]any{"description": "look up the weather"})
	if r.Map()["state"] != "pending" {
		t.Fatalf("browser.task gave %s, want pending", r.Result)
	}
	wantCode(t, d.Act(t, token, "c1", map[string]any{"action": "observe"}), "task_pending")
	d.Must(t, "POST", "/api/tasks/decide", map[string]any{"conversation": "c1", "accept": true})
	d.Observe(t, token, "c1")

	auto := d.AddAgent(t, "bob", true)
	r = d.Tool(t, auto, "browser.task", "c2", map[string]any{"description": "check a page", "steps": 500})
	if r.Map()["state"] != "active" {
		t.Fatalf("auto-approved browser.task gave %s, want active", r.Result)
	}
	st := d.Tool(t, auto, "browser.status", "c2", map[string]any{})
	if st.Map()["stepsLeft"] != float64(80) {
		t.Fatalf("an auto-approved task asked for 500 steps got %v, want the cap of 80", st.Map()["stepsLeft"])
	}
	wantCode(t, d.Act(t, auto, "c1", map[string]any{"action": "observe"}), "not_allowed")
}

func waitState(t *testing.T, d *daemontest.Daemon, conv, state string) {
	t.Helper()
	d.WaitSession(t, conv, state)
}

func waitGone(t *testing.T, d *daemontest.Daemon, conv string) {
	t.Helper()
	d.WaitSession(t, conv, "")
}

func TestScreenshotsAreKeptByTheirSessionAloneTheLastEight(t *testing.T) {
	d, token := setup(t, simOpts(sim.Config{}, nil), "c1", 80)
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1"}), "")
	for i := 0; i < 9; i++ {
		r := act(t, d, token, "c1", map[string]any{"action": "screenshot"})
		wantCode(t, r, "")
		if w := r.Map()["width"].(float64); w > 1280 {
			t.Fatalf("a default screenshot is %v px wide, want at most 1280", w)
		}
	}
	r := d.Must(t, "POST", "/api/browser/screenshots", map[string]any{"conversation": "c1"})
	var shots []struct {
		JPEG []byte `json:"jpeg"`
	}
	if err := jsonUnmarshal(r.Result, &shots); err != nil {
		t.Fatal(err)
	}
	if len(shots) != 8 {
		t.Fatalf("kept %d screenshots, want the last 8", len(shots))
	}
	if len(shots[0].JPEG) < 100 || shots[0].JPEG[0] != 0xFF || shots[0].JPEG[1] != 0xD8 {
		t.Fatalf("a kept screenshot is not a JPEG thumbnail (%d bytes)", len(shots[0].JPEG))
	}
	d.Must(t, "POST", "/api/browser/takeover", map[string]any{"conversation": "c1"})
	d.Must(t, "POST", "/api/browser/resume", map[string]any{"conversation": "c1"})
	r = d.Must(t, "POST", "/api/browser/screenshots", map[string]any{"conversation": "c1"})
	if string(r.Result) != "null" && string(r.Result) != "[]" {
		t.Fatalf("resuming did not clear the old screenshots: %s", r.Result)
	}
	// The conversation's timeline lists the screenshot steps without their
	// pictures: a screenshot is kept by its session alone, 8 at most, and
	// not past a resume.
	deadline := time.Now().Add(10 * time.Second)
	for {
		var tl struct{ Entries []json.RawMessage }
		if err := jsonUnmarshal(d.Must(t, "GET", "/api/timeline?conversation=c1", nil).Result, &tl); err != nil {
			t.Fatal(err)
		}
		entries := fmt.Sprintf("%s", tl.Entries)
		if n := strings.Count(entries, `"action":"screenshot"`); n == 9 {
			if strings.Contains(entries, "/9j/") { // a JPEG's first bytes in base64
				t.Fatalf("the timeline's steps keep a screenshot the session dropped: %.300s", entries)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the timeline never listed the 9 screenshot steps: %.600s", entries)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A navigate with no urlSource is the agent's own choice: the URL rules let
// a public site through (the sim driver then cannot load it).
func TestNavigateWithoutSourceIsTheAgentsChoice(t *testing.T) {
	d, token := setup(t, simOpts(sim.Config{}, nil), "c1", 80)
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "navigate", "url": "https://example.com/"}), "navigation_failed")
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "navigate", "url": "https://example.com/", "urlSource": "agent"}), "navigation_failed")
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "navigate", "url": "https://example.com/", "urlSource": "page_link"}), "unapproved_site")
}

// Status tells when the page last may have changed only once a step could
// have changed it: a session that has not acted has no such time (not the
// zero time, which reads as a date in year 1).
func TestStatusTellsWhenThePageChangedOnceItCould(t *testing.T) {
	d, token := setup(t, simOpts(sim.Config{}, nil), "c1", 80)
	session := func() map[string]any {
		t.Helper()
		st := d.Tool(t, token, "browser.status", "c1", map[string]any{})
		s, _ := st.Map()["session"].(map[string]any)
		if s == nil {
			t.Fatalf("status names no session: %s", st.Result)
		}
		return s
	}
	if at, ok := session()["pageAt"]; ok {
		t.Fatalf("a session that has not acted says its page changed at %v", at)
	}
	before := time.Now().Add(-time.Second)
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1"}), "")
	at, _ := session()["pageAt"].(string)
	if when, err := time.Parse(time.RFC3339Nano, at); err != nil || when.Before(before) {
		t.Fatalf("after a navigate the session says its page changed at %q, want the navigate's time", at)
	}
}
