package controller_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"
	"weak"

	"github.com/buddi-dev/buddi/actors/actortest"
	"github.com/buddi-dev/buddi/actors/controller"
	"github.com/buddi-dev/buddi/actors/controller/tasks"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/events/eventstest"
	"github.com/buddi-dev/buddi/messages"
)

// gone waits, at most 10 s, until cond holds, collecting garbage between
// looks; it reports whether cond held.
func gone(cond func() bool) bool {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		runtime.GC()
		if cond() {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// release ends c1's session and waits until it says it ended.
func (w *world) release(t *testing.T) {
	t.Helper()
	sessions := w.bus.Subscribe(events.Filter{Kinds: messages.KindSession, Conversation: "c1"})
	defer sessions.Close()
	w.owner(t, &messages.Release{Conversation: "c1"})
	eventstest.Await(t, sessions, "for c1's session to end", func(ev messages.Event) bool {
		return ev.(*messages.SessionChanged).Ended
	})
}

// A finished task past the retention leaves the controller's book and the
// store though no request comes that would sweep the book: an idle daemon
// does not keep every conversation it ever had. The conversation's binding
// to the paired chat goes with it, from the book as from the store.
func TestAFinishedTaskPastTheRetentionGoesWithoutARequest(t *testing.T) {
	w := startWith(t, func(c *controller.Config) { c.Retention = 40 * time.Millisecond })
	w.owner(t, &messages.AddAgent{Name: "ada"})
	w.owner(t, &messages.PairTelegram{User: 7, Chat: 7})
	w.owner(t, &messages.BindTelegram{Conversation: "c1", Bound: true})
	w.owner(t, &messages.StartTask{Agent: "ada", Conversation: "c1", Description: "look"})
	w.release(t)
	if _, found, _ := w.store.Task("c1"); !found {
		t.Fatal("the task was dropped before it was older than the retention")
	}
	w.clock.Advance(time.Hour)
	if !gone(func() bool { _, found, err := w.store.Task("c1"); return err == nil && !found }) {
		t.Fatal("the finished task is still stored an hour after it ended, with a retention of 40 ms")
	}
	if v := w.owner(t, &messages.GetTelegram{}).(*messages.TelegramView); len(v.Bound) != 0 {
		t.Fatalf("the pruned conversation is still bound: %v", v.Bound)
	}
	if bound, err := w.store.Bound(); err != nil || len(bound) != 0 {
		t.Fatalf("stored bindings after the prune: %v, %v", bound, err)
	}
}

// A session that ended is let go of: nothing of it stays reachable. The
// library's set of the controller's children keeps the PID of a child that
// stopped in its array, and a PID caches the process it was last sent to:
// through it the whole stopped session stayed alive, until a later child
// took its place or something sent to it again (here nothing does: the
// session took no picture that could arrive after it stopped).
func TestAnEndedSessionIsLetGo(t *testing.T) {
	w := start(t)
	w.owner(t, &messages.AddAgent{Name: "ada"})
	w.owner(t, &messages.StartTask{Agent: "ada", Conversation: "c1", Description: "look"})
	route := weak.Make(w.routes.Session("c1"))
	if route.Value() == nil {
		t.Fatal("c1 has no route while its session runs")
	}
	w.release(t)
	if !gone(func() bool { return route.Value() == nil }) {
		t.Fatal("the ended session's route is still reachable: the session was not let go of")
	}
}

// Without a retention, finished tasks past the book's bound leave the
// controller's memory but not the store: the owner keeps them for good.
func TestFinishedTasksPastTheBoundStayStoredWithoutARetention(t *testing.T) {
	w := start(t)
	w.owner(t, &messages.AddAgent{Name: "ada"})
	for i := range tasks.MaxFinished + 1 {
		conv := fmt.Sprintf("k%03d", i)
		w.clock.Advance(time.Second) // k000 is the oldest
		w.owner(t, &messages.StartTask{Agent: "ada", Conversation: conv, Description: "look"})
		w.owner(t, &messages.Release{Conversation: conv})
	}
	forgotten := func() bool {
		for _, v := range w.owner(t, &messages.ListTasks{}).(messages.TaskList) {
			if v.Conversation == "k000" {
				return false
			}
		}
		return true
	}
	if !gone(forgotten) {
		t.Fatalf("the oldest of %d finished tasks is still in the controller's book of at most %d", tasks.MaxFinished+1, tasks.MaxFinished)
	}
	// the ledger takes writes in order: once this one is stored, any
	// delete the sweep sent before it is too
	w.owner(t, &messages.AddAgent{Name: "bea"})
	if _, found, err := w.store.Task("k000"); err != nil || !found {
		t.Fatalf("the oldest finished task is gone from the store (%v) though nothing is pruned without a retention", err)
	}
}

// The fence of an id that moved goes with the task of the conversation it
// moved to, once that task is pruned: the ledger deletes the stored note
// by the same rule, and a book that kept it would grow with every move the
// daemon ever made. Before the prune the old id is still refused.
func TestTheFenceOfAMovedIdGoesWithThePrunedTaskItMovedTo(t *testing.T) {
	w := startWith(t, func(c *controller.Config) { c.Retention = 40 * time.Millisecond })
	w.owner(t, &messages.AddAgent{Name: "ada"})
	w.owner(t, &messages.StartTask{Agent: "ada", Conversation: "c1", Description: "look"})
	w.owner(t, &messages.MoveSession{Conversation: "c1", To: "c2"})
	reuse := &messages.StartTask{Agent: "ada", Conversation: "c1", Description: "look again"}
	if r := actortest.Ask[*messages.OwnerReply](t, w.sys, w.pid, reuse); r.Error == nil || r.Error.Code != messages.CodeMoved {
		t.Fatalf("a task on c1 right after it moved was answered %+v, want refused with %s", r.Error, messages.CodeMoved)
	}
	sessions := w.bus.Subscribe(events.Filter{Kinds: messages.KindSession, Conversation: "c2"})
	defer sessions.Close()
	w.owner(t, &messages.Release{Conversation: "c2"})
	eventstest.Await(t, sessions, "for c2's session to end", func(ev messages.Event) bool {
		return ev.(*messages.SessionChanged).Ended
	})
	w.clock.Advance(time.Hour)
	if !gone(func() bool { _, found, err := w.store.Task("c2"); return err == nil && !found }) {
		t.Fatal("c2's finished task is still stored an hour after it ended, with a retention of 40 ms")
	}
	if r := actortest.Ask[*messages.OwnerReply](t, w.sys, w.pid, reuse); r.Error != nil {
		t.Fatalf("c1 is still fenced after the task it moved to was pruned: %v", r.Error)
	}
}
