package daemon_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors/controller"
	"github.com/buddi-dev/buddi/actors/controller/tasks"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/actors/limits"
	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
)

// An agent flooding browser.task across conversations gets at most
// tasks.MaxPending requests waiting; the rest are refused, the owner's task
// list stays short and works, and other agents can still ask.
func TestTaskRequestFloodIsBounded(t *testing.T) {
	d := daemontest.Start(t, "", simOpts(sim.Config{}, nil))
	bob := d.AddAgent(t, "bob", false)
	carol := d.AddAgent(t, "carol", false)
	codes := map[messages.Code]int{}
	for i := range 200 {
		r := d.Tool(t, bob, "browser.task", fmt.Sprintf("f%d", i), map[string]any{"description": "squat"})
		codes[r.Code()]++
	}
	t.Logf("answers to 200 task requests: %v", codes)
	if codes[""] != tasks.MaxPending || codes[messages.CodeTooManyRequests] != 200-tasks.MaxPending {
		t.Fatalf("answers to 200 requests: %v; want %d waiting and the rest too_many_requests", codes, tasks.MaxPending)
	}
	wantCode(t, d.Tool(t, carol, "browser.task", "c1", map[string]any{"description": "mine"}), "")
	var list messages.TaskList
	d.Must(t, "GET", "/api/tasks", nil).Decode(&list)
	if len(list) != tasks.MaxPending+1 {
		t.Fatalf("the owner's task list has %d tasks, want %d", len(list), tasks.MaxPending+1)
	}
}

// An agent whose requests start at once (auto-approve) may hold only
// controller.AgentSessions of the profile's sessions; the owner can still
// give the rest to others.
func TestAutoApproveAgentHoldsAtMostItsQuota(t *testing.T) {
	d := daemontest.Start(t, "", simOpts(sim.Config{}, nil))
	auto := d.AddAgent(t, "auto", true)
	d.AddAgent(t, "ada", false)
	for i := range controller.AgentSessions {
		wantCode(t, d.Tool(t, auto, "browser.task", fmt.Sprintf("a%d", i), map[string]any{"description": "go"}), "")
	}
	wantCode(t, d.Tool(t, auto, "browser.task", "one-more", map[string]any{"description": "go"}), "too_many_sessions")
	for i := range 8 - controller.AgentSessions {
		d.Task(t, "ada", fmt.Sprintf("o%d", i), 80)
	}
}

// Removing an agent ends its sessions (tabs closed) and its waiting
// requests at once; an agent added later under the same name is another
// agent and reaches none of them.
func TestRemovedAgentsSessionsEndAndANamesakeInheritsNothing(t *testing.T) {
	d := daemontest.Start(t, "", simOpts(sim.Config{}, nil))
	old := d.AddAgent(t, "ada", false)
	d.Task(t, "ada", "c1", 80)
	d.Observe(t, old, "c1")
	wantCode(t, d.Tool(t, old, "browser.task", "c2", map[string]any{"description": "later"}), "")
	var removed messages.AgentRemoved
	d.Must(t, "DELETE", "/api/agents/ada", nil).Decode(&removed)
	if removed.Sessions != 1 {
		t.Fatalf("the removal ended %d sessions, want 1", removed.Sessions)
	}
	var sessions messages.SessionList
	d.Must(t, "GET", "/api/browser/sessions", nil).Decode(&sessions)
	if len(sessions) != 0 {
		t.Fatalf("sessions left after the removal: %+v", sessions)
	}
	var list messages.TaskList
	d.Must(t, "GET", "/api/tasks", nil).Decode(&list)
	for _, tk := range list {
		if tk.State != messages.TaskEnded || !strings.Contains(tk.EndReason, "agent was removed") {
			t.Errorf("task of %s: %s (%q), want ended because its agent was removed", tk.Conversation, tk.State, tk.EndReason)
		}
	}
	wantCode(t, d.Act(t, old, "c1", map[string]any{"action": "observe"}), "unauthorized")
	again := d.AddAgent(t, "ada", false)
	wantCode(t, d.Act(t, again, "c1", map[string]any{"action": "observe"}), "not_allowed")
	// A finished task holds no conversation: the namesake may ask for its own.
	wantCode(t, d.Tool(t, again, "browser.task", "c2", map[string]any{"description": "mine now"}), "")
	wantCode(t, d.Act(t, again, "c2", map[string]any{"action": "observe"}), "task_pending")
}

// allowedOnce starts a daemon on dir whose agent ada asked, in c1, about
// a site the owner then allowed once; nav navigates there.
func allowedOnce(t *testing.T, dir string, o daemon.Options) (*daemontest.Daemon, string, map[string]any) {
	t.Helper()
	d := daemontest.Start(t, dir, o)
	token := d.AddAgent(t, "ada", false)
	nav := map[string]any{"action": "navigate", "url": shop + "/p/1"}
	d.Task(t, "ada", "c1", 80)
	wantCode(t, d.Act(t, token, "c1", nav), "approval_required")
	d.Must(t, "POST", "/api/approvals", map[string]any{"conversation": "c1", "site": "example.com", "decision": "once"})
	return d, token, nav
}

// A site the owner allowed once holds for that task only: a new task in
// the same conversation asks again.
func TestOnceApprovalEndsWithItsTask(t *testing.T) {
	dir, o := t.TempDir(), askOpts(nil)
	d, token, nav := allowedOnce(t, dir, o)
	wantCode(t, d.Act(t, token, "c1", nav), "")
	d.Must(t, "POST", "/api/browser/release", map[string]any{"conversation": "c1"})
	d.Task(t, "ada", "c1", 80)
	wantCode(t, d.Act(t, token, "c1", nav), "approval_required")
	d.Stop(t)
	d = daemontest.Start(t, dir, o)
	wantCode(t, d.Act(t, token, "c1", nav), "approval_required")
}

// Under air-gap an agent looping on refused actions gets every refusal,
// but the record keeps only what its rate allows, each entry bounded.
func TestAirGapRefusalsAreRateLimitedAndBounded(t *testing.T) {
	dir := t.TempDir()
	o := simOpts(sim.Config{}, nil)
	o.Config.Egress.AirGap = true
	d := daemontest.Start(t, dir, o)
	token := d.AddAgent(t, "ada", false)
	d.Task(t, "ada", "c1", 80)
	long := "https://example.com/" + strings.Repeat("a", 10000)
	start := time.Now()
	for range 300 {
		wantCode(t, d.Act(t, token, "c1", map[string]any{"action": "navigate", "url": long}), "air_gap")
	}
	elapsed := time.Since(start)
	d.Stop(t) // the ledger commits what it holds as it stops
	st, err := ledger.Open(ledger.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got, err := st.Refusals()
	if err != nil {
		t.Fatal(err)
	}
	bound := limits.RefusalBurst + int(elapsed/limits.RefusalEvery) + 1
	if len(got) == 0 || len(got) > bound {
		t.Fatalf("%d refusals recorded out of 300 in %s; the rate allows at most %d", len(got), elapsed, bound)
	}
	t.Logf("300 refused navigates in %s: %d recorded", elapsed.Round(time.Millisecond), len(got))
	for _, r := range got {
		if len(r.URL) > 1100 {
			t.Fatalf("a refusal record holds a URL of %d bytes", len(r.URL))
		}
	}
}
