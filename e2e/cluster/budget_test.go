package cluster_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/cluster/shared"
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
// answer to the test as it comes, and makes its next call only once the
// test took it. So when the test acts on an answer (kills the member that
// holds the conversation), at most one call is in flight: an answer a
// member gave before it was killed is never read as one given after.
func actOn(conv string, via *atomic.Pointer[member], done <-chan struct{}) <-chan answered {
	out := make(chan answered)
	go func() {
		defer close(out)
		for {
			m := via.Load()
			r, err := m.Do("POST", "/api/tools/browser.act", m.agent, map[string]any{"conversation": conv, "input": map[string]any{"action": "observe"}})
			select {
			case out <- answered{m, r, err}:
			case <-done:
				return
			}
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

// stepsLeftOf is the stepsLeft an act's answer tells the agent.
func stepsLeftOf(t testing.TB, r *daemontest.Reply) int {
	t.Helper()
	var res struct {
		StepsLeft int `json:"stepsLeft"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil {
		t.Fatal(err)
	}
	return res.StepsLeft
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
// stepsLeft it is told goes on from where it was across each move (less
// by at most one more for each call whose answer was withheld: the step
// in flight when its member died, or one whose member answered too late),
// and the budget ends it.
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
	withheld, since := 0, 0 // calls answered without their result: in all, and since the last step
	var heard []string      // every answer, for the log
	defer func() { t.Logf("what the agent heard:\n%s", strings.Join(heard, "\n")) }()
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
			heard = append(heard, fmt.Sprintf("via %s (killed): %v", ans.via.name, ans.err))
			withheld, since = withheld+1, since+1 // the call went through the member just killed
		case ans.err != nil:
			t.Fatalf("a call through %s, which was not killed, failed: %v", ans.via.name, ans.err)
		case r.OK:
			stepsLeft := stepsLeftOf(t, r)
			heard = append(heard, fmt.Sprintf("via %s: ok, %d steps left", ans.via.name, stepsLeft))
			got++
			step := left - stepsLeft
			if step < 1 || step > 1+since {
				t.Fatalf("after %d steps the agent was told %d left, after %d before and %d answers withheld since; want one less, and one more less at most for each withheld", got, stepsLeft, left, since)
			}
			lost += step - 1
			left, since = stepsLeft, 0
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
			heard = append(heard, fmt.Sprintf("via %s: %s", ans.via.name, r.Code()))
			spent = true
			if left > since {
				t.Fatalf("the budget was spent with %d steps left and %d answers withheld since the agent was told so", left, since)
			}
			lost, left = lost+left, 0 // the withheld calls used the steps left
		case r.Code() == messages.CodeRestarted || r.Code() == messages.CodeClusterDown:
			heard = append(heard, fmt.Sprintf("via %s: %s %s", ans.via.name, r.Code(), r.Error.Message))
			withheld, since = withheld+1, since+1
		default:
			t.Fatalf("an act answered %q while its member was lost: %s", r.Code(), r.Error.Message)
		}
	}
	t.Logf("the agent got %d of %d steps over %d kills; %d lost in flight of %d calls answered without their result", got, budget, kills, lost, withheld)
	switch {
	case kills != 2:
		t.Fatalf("the budget was spent after %d kills, want 2", kills)
	case got+lost != budget:
		t.Fatalf("the agent got %d steps and lost %d in flight of %d; want them to add up to its budget", got, lost, budget)
	case lost > withheld:
		t.Fatalf("%d steps lost over %d calls answered without their result; at most one each", lost, withheld)
	}
}

// A conversation claimed in etcd by another running member while its
// session runs where it was (as a second activation made while the
// members' lists settle claims it and is then stopped) is claimed back:
// the call that finds it claimed away has its answer withheld, a later
// call is answered as before, the steps go on with at most the withheld
// ones lost, and etcd names a running member again.
func TestAConversationClaimedAwayIsClaimedBackByALaterCall(t *testing.T) {
	etcd, a, b, c := three(t)
	const budget = 20
	a.Task(t, "ada", "b1", budget)
	all := []*member{a, b, c}
	home := homeOf(t, etcd, "b1", all...)
	via := others(home, all...)[0]
	r := via.Act(t, via.agent, "b1", map[string]any{"action": "observe"})
	if !r.OK {
		t.Fatalf("the first observe answered %s: %s", r.Code(), r.Error.Message)
	}
	left := stepsLeftOf(t, r)

	thief := others(home, all...)[1]
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	st := storeOf(ctx, t, etcd)
	defer st.Close()
	if _, _, err := st.Swap(ctx, shared.Homes, "b1", []byte(thief.id(t))); err != nil {
		t.Fatal(err)
	}
	t.Logf("etcd names %s for b1, whose session runs on %s", thief.name, home.name)

	withheld := 0
	for ok := false; !ok; {
		if withheld > 3 {
			t.Fatalf("%d calls in a row were answered without their result after b1 was claimed away", withheld)
		}
		r := via.Act(t, via.agent, "b1", map[string]any{"action": "observe"})
		switch {
		case r.OK:
			ok = true
			if got := stepsLeftOf(t, r); got > left-1 || got < left-1-withheld {
				t.Fatalf("after %d withheld calls the agent was told %d steps left, %d before; want one less, and at most one more less for each withheld", withheld, got, left)
			}
		case r.Code() == messages.CodeRestarted:
			withheld++
		default:
			t.Fatalf("an observe after b1 was claimed away answered %s: %s", r.Code(), r.Error.Message)
		}
	}
	if withheld == 0 {
		t.Fatal("the first call after b1 was claimed away was answered as if nothing happened")
	}
	holder := homeOf(t, etcd, "b1", all...)
	if r := via.Act(t, via.agent, "b1", map[string]any{"action": "observe"}); !r.OK {
		t.Fatalf("the observe after b1 was claimed back (by %s) answered %s: %s", holder.name, r.Code(), r.Error.Message)
	}
}
