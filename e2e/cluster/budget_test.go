package cluster_test

import (
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/messages"
)

// answered is one of the agent's calls as it heard it.
type answered struct {
	via *member
	r   *daemontest.Reply
	err error
}

// actOn observes conv as the agent, through whichever member via names,
// call after call, until the budget is spent or done closes; it hands every
// answer to the test as it comes.
func actOn(conv string, via *atomic.Pointer[member], done <-chan struct{}) <-chan answered {
	out := make(chan answered, 4096)
	go func() {
		defer close(out)
		for {
			select {
			case <-done:
				return
			default:
			}
			m := via.Load()
			r, err := m.Do("POST", "/api/tools/browser.act", m.agent, map[string]any{"conversation": conv, "input": map[string]any{"action": "observe"}})
			out <- answered{m, r, err}
			if err == nil && r.Code() == messages.CodeBudgetSpent {
				return
			}
			if err != nil || !r.OK {
				time.Sleep(20 * time.Millisecond) // the conversation is moving
			}
		}
	}()
	return out
}

// running are the members of ms whose process was not killed.
func running(ms []*member) []*member {
	var out []*member
	for _, m := range ms {
		if m.cmd.ProcessState == nil {
			out = append(out, m)
		}
	}
	return out
}

// The member holding a conversation is killed twice in a row while its
// agent acts: the agent never gets more steps than its budget, the
// stepsLeft it is told goes on from where it was across each move (one
// less at most, for the step in flight when its member died), and the
// budget ends it.
func TestABudgetHoldsAcrossTwoKilledMembers(t *testing.T) {
	etcd, a, b, c := three(t)
	const budget = 14
	a.Task(t, "ada", "b1", budget)
	all := []*member{a, b, c}

	home := homeOf(t, etcd, "b1", all...)
	var via atomic.Pointer[member]
	via.Store(others(home, all...)[0])
	done := make(chan struct{})
	defer close(done)
	answers := actOn("b1", &via, done)

	got, left, kills, lost := 0, budget, 0, 0
	moving := false // a call failed since the last step the agent got
	deadline := time.After(3 * patience)
	for spent := false; !spent; {
		var ans answered
		select {
		case ans = <-answers:
		case <-deadline:
			t.Fatalf("the agent got %d steps and was not told its budget was spent", got)
		}
		r := ans.r
		switch {
		case ans.err != nil && ans.via.cmd.ProcessState != nil:
			moving = true // the call went through the member just killed
		case ans.err != nil:
			t.Fatalf("a call through %s, which was not killed, failed: %v", ans.via.name, ans.err)
		case r.OK:
			var res struct {
				StepsLeft int `json:"stepsLeft"`
			}
			if err := json.Unmarshal(r.Result, &res); err != nil {
				t.Fatal(err)
			}
			got++
			step := left - res.StepsLeft
			if step != 1 && (step != 2 || !moving) {
				t.Fatalf("after %d steps the agent was told %d left, after %d before (moving: %v); want one less, or two across a move", got, res.StepsLeft, left, moving)
			}
			lost += step - 1
			left, moving = res.StepsLeft, false
			if got%4 == 0 && kills < 2 {
				// Kill the conversation's member while the agent goes on
				// acting through a member that lives on.
				home = homeOf(t, etcd, "b1", all...)
				via.Store(running(others(home, all...))[0])
				home.kill9()
				kills++
				t.Logf("killed %s after %d steps, %d left", home.name, got, left)
			}
		case r.Code() == messages.CodeBudgetSpent:
			spent = true
		case r.Code() == messages.CodeRestarted || r.Code() == messages.CodeClusterDown:
			moving = true
		default:
			t.Fatalf("an act answered %q while its member was lost: %s", r.Code(), r.Error.Message)
		}
	}
	t.Logf("the agent got %d of %d steps over %d kills; %d lost in flight", got, budget, kills, lost)
	switch {
	case kills != 2:
		t.Fatalf("the budget was spent after %d kills, want 2", kills)
	case got > budget:
		t.Fatalf("the agent got %d steps of a %d-step budget", got, budget)
	case got+lost != budget || left != 0:
		t.Fatalf("the agent got %d steps and lost %d in flight of %d, and was told %d left at the end; want them to add up to its budget", got, lost, budget, left)
	case lost > kills:
		t.Fatalf("%d steps lost over %d kills; at most the one in flight per kill", lost, kills)
	}
}
