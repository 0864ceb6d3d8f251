package ledger_test

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors/ledger"
)

// sendSteps sends n step counters of conversations s0… as lazy writes, as
// sessions do on every act, and returns their conversations.
func sendSteps(t *testing.T, send func(*ledger.Write), n int) []string {
	t.Helper()
	var convs []string
	for i := range n {
		c := fmt.Sprintf("s%d", i)
		convs = append(convs, c)
		send(ledger.One(ledger.Put(ledger.StepsKey(c), ledger.Steps{Used: i + 1}), true))
	}
	return convs
}

func wantSteps(t *testing.T, st *ledger.Store, convs []string) {
	t.Helper()
	for i, c := range convs {
		if got, err := st.Steps(c); err != nil || got.Used != i+1 {
			t.Errorf("steps of %s = %d (%v), want %d", c, got.Used, err, i+1)
		}
	}
}

// TestStepCountersJoinTheNextWriteThatIsNotLazy holds step counters back
// (the lazy wait made an hour) and checks that the next agent write that
// is not lazy takes them all in its one commit. (An owner's write is taken
// ahead of them: it commits whatever was staged before it.)
func TestStepCountersJoinTheNextWriteThatIsNotLazy(t *testing.T) {
	ledger.SetLazyWait(t, time.Hour)
	st, pid, sys := open(t)
	var commits atomic.Int32
	st.BeforeCommit(func() { commits.Add(1) })
	convs := sendSteps(t, func(w *ledger.Write) { sys.Root.Send(pid, w) }, 20)
	time.Sleep(20 * time.Millisecond) // time for a commit that should not come
	if n := commits.Load(); n != 0 {
		t.Fatalf("step counters alone took %d commits before the wait was over", n)
	}
	task := &ledger.Write{Ops: []ledger.Op{ledger.Put(ledger.TaskKey("t1"), ledger.Task{Conversation: "t1"})}}
	if err := ledger.Check(ledger.Request(sys.Root, pid, task, 5*time.Second).Result()); err != nil {
		t.Fatal(err)
	}
	wantSteps(t, st, convs)
	if n := commits.Load(); n != 1 {
		t.Errorf("20 step counters and a task took %d commits, want 1", n)
	}
}

// TestStepCountersAloneAreCommitted checks the lazy wait ends: with no
// other write, step counters land by themselves, and a ledger that stops
// first commits what it holds.
func TestStepCountersAloneAreCommitted(t *testing.T) {
	t.Run("after the wait", func(t *testing.T) {
		st, pid, sys := open(t)
		convs := sendSteps(t, func(w *ledger.Write) { sys.Root.Send(pid, w) }, 5)
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
			if got, err := st.Steps(convs[len(convs)-1]); err == nil && got.Used == len(convs) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("step counters written alone were not committed within 5 s")
			}
		}
		wantSteps(t, st, convs)
	})
	t.Run("on stopping", func(t *testing.T) {
		ledger.SetLazyWait(t, time.Hour)
		st, pid, sys := open(t)
		convs := sendSteps(t, func(w *ledger.Write) { sys.Root.Send(pid, w) }, 5)
		if err := sys.Root.PoisonFuture(pid).Wait(); err != nil {
			t.Fatal(err)
		}
		wantSteps(t, st, convs)
	})
}
