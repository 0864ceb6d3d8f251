package daemon_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
)

// A Stop that lands while an action runs must not leave the session stuck.
func TestStopDuringAnActionThenResumeAll(t *testing.T) {
	d, token := setup(t, simOpts(sim.Config{LoadLatency: 30 * time.Second}, nil), "c1", 80)
	done := make(chan *daemontest.Reply, 1)
	go func() {
		done <- d.Act(t, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/3"})
	}()
	waitState(t, d, "c1", "working")
	d.Must(t, "POST", "/api/browser/stop", nil)
	wantCode(t, <-done, "stopped")
	d.Must(t, "POST", "/api/browser/resume", map[string]any{"all": true})
	d.Observe(t, token, "c1")
}

// A Stop ends a take-over with the rest (its hand let go, its tabs closed):
// while it holds the agent is refused, and after the owner resumes access
// the session starts afresh on a blank page, not the page the owner left.
func TestStopEndsATakeOverAndResumeStartsAfresh(t *testing.T) {
	d, token := setup(t, simOpts(sim.Config{}, nil), "c1", 80)
	wantCode(t, act(t, d, token, "c1", nav(sim.Origin+"/p/1")), "")
	d.Must(t, "POST", "/api/browser/takeover", map[string]any{"conversation": "c1"})
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "observe"}), "taken_over")
	d.Must(t, "POST", "/api/browser/stop", nil)
	wantCode(t, act(t, d, token, "c1", map[string]any{"action": "observe"}), "stopped")
	d.Must(t, "POST", "/api/browser/resume", map[string]any{"all": true})
	obs := d.Observe(t, token, "c1")
	if obs["url"] != "about:blank" {
		t.Fatalf("after a Stop and resume the session observes %v, want a fresh blank page", obs["url"])
	}
}

// Resume is refused unless the session is paused or taken over, and a call
// in flight is still answered.
func TestResumeOfAWorkingSessionIsRefused(t *testing.T) {
	d, token := setup(t, simOpts(sim.Config{Latency: 300 * time.Millisecond}, nil), "c1", 80)
	done := make(chan *daemontest.Reply, 1)
	go func() { done <- d.Act(t, token, "c1", map[string]any{"action": "observe"}) }()
	waitState(t, d, "c1", "working")
	r, err := d.Do("POST", "/api/browser/resume", d.Owner, map[string]any{"conversation": "c1"})
	if err != nil || r.Code() != "not_paused" {
		t.Fatalf("resume of a working session: %v %v, want not_paused", r.Code(), err)
	}
	wantCode(t, <-done, "")
}

// One conversation crashing past the restart cap ends its own task only.
func TestRepeatedCrashesEndOnlyThatTask(t *testing.T) {
	var crashBad atomic.Bool
	o := simOpts(sim.Config{}, nil)
	o.Chaos = func() bool { return crashBad.Load() }
	d := daemontest.Start(t, "", o)
	token := d.AddAgent(t, "ada", false)
	d.Task(t, "ada", "good", 80)
	d.Task(t, "ada", "bad", 80)
	good := d.Observe(t, token, "good")
	crashBad.Store(true)
	for i := 0; i < 10; i++ {
		r := d.Act(t, token, "bad", map[string]any{"action": "observe"})
		if r.Code() == "no_task" {
			break
		}
	}
	crashBad.Store(false)
	wantCode(t, d.Act(t, token, "bad", map[string]any{"action": "observe"}), "no_task")
	// The other session was not restarted: its evidence still holds.
	r := d.Act(t, token, "good", map[string]any{"action": "scroll", "observation": daemontest.ID(good), "deltaY": 100})
	wantCode(t, r, "")
}

// An acknowledged release is durable: after a restart the session stays gone.
func TestReleaseIsDurableBeforeItIsAcknowledged(t *testing.T) {
	dir := t.TempDir()
	d := daemontest.Start(t, dir, simOpts(sim.Config{}, nil))
	token := d.AddAgent(t, "ada", false)
	d.Task(t, "ada", "c1", 80)
	d.Observe(t, token, "c1")
	d.Must(t, "POST", "/api/browser/release", map[string]any{"conversation": "c1"})
	d.Stop(t)
	d = daemontest.Start(t, dir, simOpts(sim.Config{}, nil))
	wantCode(t, d.Act(t, token, "c1", map[string]any{"action": "observe"}), "no_task")
}

// browser.task respects the Stop and other agents' conversations.
func TestTaskRequestsRespectStopAndOwnership(t *testing.T) {
	d := daemontest.Start(t, "", simOpts(sim.Config{}, nil))
	ada := d.AddAgent(t, "ada", true)
	bob := d.AddAgent(t, "bob", true)
	d.Task(t, "ada", "mine", 80)
	wantCode(t, d.Tool(t, bob, "browser.task", "mine", map[string]any{"description": "take it"}), "not_allowed")
	d.Must(t, "POST", "/api/browser/stop", nil)
	wantCode(t, d.Tool(t, ada, "browser.task", "new", map[string]any{"description": "during stop"}), "stopped")
}

// A conversation can get a new task the moment its last one ended, again
// and again: the old session's exit must not touch the new one.
func TestBackToBackTasksInOneConversation(t *testing.T) {
	d, token := setup(t, simOpts(sim.Config{}, nil), "c1", 2)
	for i := 0; i < 20; i++ {
		d.Observe(t, token, "c1")
		d.Observe(t, token, "c1")
		wantCode(t, d.Act(t, token, "c1", map[string]any{"action": "observe"}), "budget_spent")
		d.Task(t, "ada", "c1", 2)
	}
	d.Observe(t, token, "c1")
}

// While the owner's Stop holds, browser.status says a conversation's
// session is stopped, as buddi sessions and the dashboard do, and that a
// conversation that never had one has none; after the resume the session
// says ready again.
func TestStatusDuringAStopSaysTheSessionIsStopped(t *testing.T) {
	d, token := setup(t, simOpts(sim.Config{}, nil), "c1", 80)
	d.Observe(t, token, "c1")
	status := func(conv string) map[string]any {
		t.Helper()
		r := d.Tool(t, token, "browser.status", conv, map[string]any{})
		if !r.OK {
			t.Fatalf("status of %s: %s", conv, r.Code())
		}
		return r.Map()
	}
	d.Must(t, "POST", "/api/browser/stop", nil)
	for conv, want := range map[string]string{"c1": "stopped", "never-started": "no_session"} {
		if st := status(conv); st["state"] != want || st["stopped"] != true {
			t.Errorf("during the Stop, the status of %s says state %v, stopped %v; want %s, true", conv, st["state"], st["stopped"], want)
		}
	}
	d.Must(t, "POST", "/api/browser/resume", map[string]any{"all": true})
	st := status("c1")
	if s, _ := st["session"].(map[string]any); s["state"] != "ready" || st["stopped"] != false {
		t.Errorf("after the resume, the status says %v; want its session ready and stopped false", st)
	}
	// One place to read the state, with a session or without.
	if st["state"] != "ready" || st["conversation"] != "c1" {
		t.Errorf("after the resume, the status says state %v of conversation %v at its top; want ready, c1", st["state"], st["conversation"])
	}
}
