package ledger_test

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors/ledger"
)

// setSteps sets n step counters of conversations s0… as sessions do on
// every act, and returns their conversations.
func setSteps(st *ledger.Store, n int) []string {
	var convs []string
	for i := range n {
		c := fmt.Sprintf("s%d", i)
		convs = append(convs, c)
		st.SetSteps(string(ledger.StepsKey(c)), i+1)
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

// TestStepCountersJoinTheNextWrite holds step counters back (the lazy
// wait made an hour) and checks that the next write takes them all in its
// one commit.
func TestStepCountersJoinTheNextWrite(t *testing.T) {
	ledger.SetLazyWait(t, time.Hour)
	st, pid, sys := open(t)
	var commits atomic.Int32
	st.BeforeCommit(func() { commits.Add(1) })
	convs := setSteps(st, 20)
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
		st, _, _ := open(t)
		convs := setSteps(st, 5)
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
		convs := setSteps(st, 5)
		if err := sys.Root.PoisonFuture(pid).Wait(); err != nil {
			t.Fatal(err)
		}
		wantSteps(t, st, convs)
	})
}

// A step counter set before a release deleted its key is not written
// after the delete, in the same commit or a later one; one set after the
// delete is.
func TestAStepCounterOlderThanADeleteIsDropped(t *testing.T) {
	ledger.SetLazyWait(t, time.Hour)
	st, pid, sys := open(t)
	key := ledger.StepsKey("c1")
	write(t, sys, pid, ledger.Put(key, ledger.Steps{Used: 3}))
	st.SetSteps(string(key), 4) // before the delete below was made
	del := &ledger.Write{Owner: true, Ops: []ledger.Op{ledger.Delete(key)}}
	if err := ledger.Check(ledger.Request(sys.Root, pid, del, 5*time.Second).Result()); err != nil {
		t.Fatal(err)
	}
	write(t, sys, pid, ledger.Put(ledger.TaskKey("t1"), ledger.Task{Conversation: "t1"}))
	if found, err := st.Get(key, &ledger.Steps{}); err != nil || found {
		t.Fatalf("a counter set before the delete was written after it (found %v, %v)", found, err)
	}
	st.SetSteps(string(key), 5)
	write(t, sys, pid, ledger.Put(ledger.TaskKey("t2"), ledger.Task{Conversation: "t2"}))
	if got, err := st.Steps("c1"); err != nil || got.Used != 5 {
		t.Fatalf("a counter set after the delete reads %d (%v), want 5", got.Used, err)
	}
}
