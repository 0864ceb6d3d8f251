package ledger_test

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors"
	"github.com/buddi-dev/buddi/actors/ledger"
)

// TestRetentionPrunesOnlyEndedConversations fills a real store with the
// records of conversations that ended long ago (more than one pruning pass
// holds), one that ended just now, a live one as old, and the install's own
// state, and checks the ledger's timer removes exactly the first.
func TestRetentionPrunesOnlyEndedConversations(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	long := now.Add(-time.Hour)
	st, write := pruning(t, now)
	const old = 700 // more than two passes' worth
	body := strings.Repeat("x", 2048)
	for i := range old {
		conv := fmt.Sprintf("old%04d", i)
		write(ledger.Put(ledger.TaskKey(conv), ledger.Task{Conversation: conv, Description: body, State: ledger.TaskEnded, Created: long, Ended: long}),
			ledger.Put(ledger.StepsKey(conv), ledger.Steps{Used: 3}),
			ledger.Put(ledger.AppKey(conv, "calc"), ledger.AppAnswer{Conversation: conv, App: "calc", Decision: "once", At: long}),
			ledger.Put(ledger.ApprovalKey(conv, "site:example.com"), ledger.SiteOnce{Conversation: conv, At: long}),
			ledger.Put(ledger.BoundKey(conv), ledger.Bound{Conversation: conv, At: long}))
	}
	write(ledger.Put(ledger.TaskKey("recent"), ledger.Task{Conversation: "recent", State: ledger.TaskEnded, Created: long, Ended: now}),
		ledger.Put(ledger.TaskKey("refused"), ledger.Task{Conversation: "refused", State: ledger.TaskRefused, Created: long, Ended: long}),
		ledger.Put(ledger.TaskKey("live"), ledger.Task{Conversation: "live", State: ledger.TaskActive, Created: long, Started: long}),
		ledger.Put(ledger.SessionKey("live"), ledger.Session{Conversation: "live", ID: "s1"}),
		ledger.Put(ledger.StepsKey("live"), ledger.Steps{Used: 7}),
		ledger.Put(ledger.TaskKey("waiting"), ledger.Task{Conversation: "waiting", State: ledger.TaskPending, Created: long}),
		ledger.Put(ledger.StopKey(), ledger.Stop{Stopped: true, At: long}),
		ledger.Put(ledger.AirGapKey(), ledger.AirGap{On: true, At: long}),
		ledger.Put(ledger.SiteKey("proj", "example.com"), ledger.SiteOnce{At: long}),
		ledger.Put(ledger.AgentKey("ada"), ledger.Agent{ID: "ag_1", Name: "ada", Created: long}),
		ledger.Put(ledger.RefusalKey(long.Format("20060102T150405.000000000")+"/00000001/old0000"), ledger.Refusal{Conversation: "old0000", At: long}),
		ledger.Put(ledger.RefusalKey(now.Format("20060102T150405.000000000")+"/00000002/live"), ledger.Refusal{Conversation: "live", At: now}))
	// What was written, not what the store holds now: the ledger's timer
	// prunes while the writes go on, and on a loaded machine most may be
	// pruned and compacted before they all are in.
	written := int64(old * len(body))

	deadline := time.Now().Add(30 * time.Second)
	for {
		tasks, err := st.Tasks()
		if err != nil {
			t.Fatal(err)
		}
		if len(tasks) == 3 || time.Now().After(deadline) {
			names := make([]string, 0, len(tasks))
			for _, tk := range tasks {
				names = append(names, tk.Conversation)
			}
			if strings.Join(names, ",") != "live,recent,waiting" {
				t.Fatalf("tasks left after pruning: %d, want live, recent and waiting (first: %v)", len(names), names[:min(5, len(names))])
			}
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	checkKept(t, st)
	checkGone(t, st)
	// The three tasks and the live session's two records, the Stop, the
	// air-gap setting, the site, the agent and the recent refusal.
	if n, err := st.Records(); err != nil || n != 10 {
		t.Fatalf("records left after pruning: %d, %v; want 10", n, err)
	}

	// The space of what was deleted is given back once the compaction
	// after the prune has run.
	for int64(st.Size().Live) > written/10 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if after := st.Size(); int64(after.Live) > written/10 {
		t.Fatalf("the store's records take %d bytes after pruning %d conversations of 2 KB (%d bytes written)", after.Live, old, written)
	}
}

// pruning is a real store with a ledger that prunes it on a short
// retention, by a clock that stands still at now: only what ended before
// it, less the retention, is old enough. write writes through the ledger.
func pruning(t *testing.T, now time.Time) (st *ledger.Store, write func(ops ...ledger.Op)) {
	t.Helper()
	st, err := ledger.Open(filepath.Join(t.TempDir(), "state"))
	if err != nil {
		t.Fatal(err)
	}
	sys := actors.NewSystem(slog.New(slog.DiscardHandler))
	t.Cleanup(sys.Shutdown)
	ret := ledger.Retention{Keep: 400 * time.Millisecond, Now: func() time.Time { return now }}
	pid := sys.Root.Spawn(ledger.Props(st, slog.New(slog.DiscardHandler), ret))
	t.Cleanup(func() {
		_ = sys.Root.PoisonFuture(pid).Wait()
		_ = st.Close()
	})
	return st, func(ops ...ledger.Op) {
		t.Helper()
		if err := ledger.Check(ledger.Request(sys.Root, pid, &ledger.Write{Ops: ops}, 10*time.Second).Result()); err != nil {
			t.Fatal(err)
		}
	}
}

// checkKept checks what the retention never touches is still there.
func checkKept(t *testing.T, st *ledger.Store) {
	t.Helper()
	if s, err := st.Stop(); err != nil || !s.Stopped {
		t.Fatalf("the Stop after pruning: %+v, %v", s, err)
	}
	if a, err := st.AirGap(); err != nil || !a.On {
		t.Fatalf("the air-gap setting after pruning: %+v, %v", a, err)
	}
	if _, live, err := st.Session("live"); err != nil || !live {
		t.Fatalf("the live session after pruning: %v, %v", live, err)
	}
	if s, err := st.Steps("live"); err != nil || s.Used != 7 {
		t.Fatalf("the live step counter after pruning: %+v, %v", s, err)
	}
	if ags, err := st.Agents(); err != nil || len(ags) != 1 {
		t.Fatalf("agents after pruning: %v, %v", ags, err)
	}
	var site ledger.SiteOnce
	if found, err := st.Get(ledger.SiteKey("proj", "example.com"), &site); err != nil || !found {
		t.Fatalf("a site approved always after pruning: %v, %v", found, err)
	}
	refs, err := st.Refusals()
	if err != nil || len(refs) != 1 || refs[0].Conversation != "live" {
		t.Fatalf("refusals after pruning: %+v, %v (want only the recent one)", refs, err)
	}
}

// checkGone checks no record of an old conversation is left.
func checkGone(t *testing.T, st *ledger.Store) {
	t.Helper()
	if s, err := st.Steps("old0001"); err != nil || s.Used != 0 {
		t.Fatalf("an old step counter after pruning: %+v, %v", s, err)
	}
	for name, n := range map[string]func() (int, error){
		"once answers": func() (int, error) { l, err := st.SiteOnce(); return len(l), err },
		"app answers":  func() (int, error) { l, err := st.AppAnswers(); return len(l), err },
		"bindings":     func() (int, error) { l, err := st.Bound(); return len(l), err },
	} {
		if got, err := n(); err != nil || got != 0 {
			t.Errorf("%s after pruning: %d, %v", name, got, err)
		}
	}
}

// TestRetentionPrunesMoveNotesOnlyOfFinishedConversations checks a note
// that an id moved goes once the move is older than the retention and the
// new conversation is over (its task ended as long ago, or was pruned),
// and stays while the new conversation runs or ended recently.
func TestRetentionPrunesMoveNotesOnlyOfFinishedConversations(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	long := now.Add(-time.Hour)
	st, write := pruning(t, now)
	task := func(conv, state string, ended time.Time) ledger.Op {
		return ledger.Put(ledger.TaskKey(conv), ledger.Task{Conversation: conv, State: state, Created: long, Started: long, Ended: ended})
	}
	note := func(from, to string, at time.Time) ledger.Op {
		return ledger.Put(ledger.MovedKey(from), ledger.Moved{From: from, To: to, At: at})
	}
	ops := []ledger.Op{
		task("ended", ledger.TaskEnded, long), note("a-ended", "ended", long),
		note("a-pruned", "pruned", long), // its new conversation's records are gone already
		task("live", ledger.TaskActive, time.Time{}), ledger.Put(ledger.SessionKey("live"), ledger.Session{Conversation: "live", ID: "s1"}),
		note("a-live", "live", long),
		task("recent", ledger.TaskEnded, now), note("a-recent", "recent", long),
		task("ended2", ledger.TaskEnded, long), note("a-new", "ended2", now),
	}
	write(ops...)
	want := "a-live,a-new,a-recent"
	deadline := time.Now().Add(30 * time.Second)
	for {
		notes, err := st.Moved()
		if err != nil {
			t.Fatal(err)
		}
		names := make([]string, 0, len(notes))
		for _, m := range notes {
			names = append(names, m.From)
		}
		got := strings.Join(names, ",")
		if got == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("move notes left after pruning: %s, want %s", got, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestDeletesOfOtherWritersAreCompacted checks the space of records a
// writer deleted (the controller, when a task ends or its book drops one)
// comes back at the pruner's next round, as that of records the pruner
// deleted itself: the pruner finds nothing of its own to delete then.
func TestDeletesOfOtherWritersAreCompacted(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	st, write := pruning(t, now)
	const n = 300
	body := strings.Repeat("x", 2048)
	for i := range n {
		conv := fmt.Sprintf("c%04d", i)
		// Ended now: not old enough for the pruner's own rounds.
		write(ledger.Put(ledger.TaskKey(conv), ledger.Task{Conversation: conv, Description: body, State: ledger.TaskEnded, Created: now, Ended: now}))
	}
	for i := range n {
		write(ledger.Delete(ledger.TaskKey(fmt.Sprintf("c%04d", i))))
	}
	written := uint64(n * len(body))
	deadline := time.Now().Add(30 * time.Second)
	for st.Size().Live > written/10 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if live := st.Size().Live; live > written/10 {
		t.Fatalf("the store's records take %d bytes after %d records of 2 KB were deleted (%d bytes written)", live, n, written)
	}
}
