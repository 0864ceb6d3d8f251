package tasks_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors/controller/tasks"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

func TestATaskGoesFromPendingToActiveToEnded(t *testing.T) {
	now := time.Unix(1000, 0)
	b := tasks.New(nil, noIDs, func() time.Time { return now })
	p := b.Pending(ada, "c1", "look", 0, 0)
	if p.State != messages.TaskPending || p.MaxSteps != messages.DefaultSteps || p.Lifetime != messages.DefaultLifetime {
		t.Fatalf("pending = %+v", p)
	}
	b.Put(p)
	if e := b.NoTask("c1"); e.Code != messages.CodeTaskPending {
		t.Fatalf("an act before the owner decided: %v", e)
	}
	if _, e := b.Decidable("c1"); e != nil {
		t.Fatal(e)
	}
	a := b.Activate(p)
	if a.State != messages.TaskActive || !a.Expires.Equal(now.Add(messages.DefaultLifetime)) {
		t.Fatalf("active = %+v", a)
	}
	if got, _ := b.Get("c1"); got.State != messages.TaskPending {
		t.Fatal("activating a value changed the book before Put")
	}
	b.Put(a)
	ended := tasks.End(a, "Done because.", now)
	b.Put(ended)
	if e := b.NoTask("c1"); e.Code != messages.CodeNoTask || e.Message != "Done because. Ask the owner for a new task." {
		t.Fatalf("after the end: %v", e)
	}
	if _, e := b.Decidable("c1"); e == nil || e.Code != messages.CodeNoPendingTask {
		t.Fatalf("deciding an ended task: %v", e)
	}
}

func TestRefuseAndOwnership(t *testing.T) {
	ids := func(name string) string { return map[string]string{"ada": "ag_1"}[name] }
	b := tasks.New([]ledger.Task{{Conversation: "c1", Agent: "ada", State: ledger.TaskPending},
		{Conversation: "c2", Agent: "gone", State: ledger.TaskActive}}, ids, time.Now)
	if !b.OtherAgent("c1", "ag_2") || b.OtherAgent("c1", "ag_1") || b.OtherAgent("c9", "ag_2") {
		t.Fatal("OtherAgent is wrong")
	}
	if !b.OtherAgent("c2", "ag_1") {
		t.Fatal("a task of an agent that no longer exists belongs to someone")
	}
	if !b.Claimed("c1", "ag_2") || b.Claimed("c1", "ag_1") {
		t.Fatal("a waiting request does not claim its conversation for its agent")
	}
	r, e := b.Refuse("c1")
	if e != nil || r.State != ledger.TaskRefused {
		t.Fatalf("refuse: %+v %v", r, e)
	}
	b.Put(r)
	if e := b.NoTask("c1"); e.Code != messages.CodeTaskRefused {
		t.Fatalf("an act after a refusal: %v", e)
	}
	if b.Claimed("c1", "ag_2") {
		t.Fatal("a refused request still claims its conversation")
	}
	if v := tasks.View(r); v.State != messages.TaskRefused || v.Agent != "ada" {
		t.Fatalf("view = %+v", v)
	}
}

var ada = ledger.Agent{ID: "ag_1", Name: "ada"}

func noIDs(string) string { return "" }

// Requests that wait too long lapse, and the history of finished tasks is
// bounded, oldest dropped first, so an agent's requests cannot grow the
// owner's task list without end.
func TestRequestsLapseAndHistoryIsBounded(t *testing.T) {
	now := time.Unix(1000, 0)
	b := tasks.New(nil, noIDs, func() time.Time { return now })
	b.Put(b.Pending(ada, "old", "x", 0, 0))
	now = now.Add(time.Minute)
	b.Put(b.Pending(ada, "new", "x", 0, 0))
	if n := b.PendingOf("ag_1"); n != 2 {
		t.Fatalf("PendingOf = %d", n)
	}
	now = now.Add(tasks.PendingLife - time.Minute)
	lapsed := b.Lapse()
	if len(lapsed) != 1 || lapsed[0].Conversation != "old" || lapsed[0].State != messages.TaskEnded {
		t.Fatalf("lapsed = %+v", lapsed)
	}
	if b.PendingOf("ag_1") != 1 || len(b.Of("ag_1")) != 1 {
		t.Fatal("the lapsed request still counts")
	}
	for i := range tasks.MaxFinished + 5 {
		now = now.Add(time.Second)
		b.Put(tasks.End(b.Pending(ada, fmt.Sprintf("f%03d", i), "x", 0, 0), "done", now))
	}
	expired, overflow := b.Prune(time.Time{})
	if len(expired) != 0 || len(overflow) != 6 || overflow[0] != "old" || overflow[1] != "f000" {
		t.Fatalf("pruned with no retention: expired %v, past the bound %v", expired, overflow)
	}
	if _, ok := b.Get("f005"); !ok {
		t.Fatal("a task within the bound was dropped")
	}
	if _, ok := b.Get("new"); !ok {
		t.Fatal("a waiting request was pruned")
	}
	// The retention: every task that ended before the cutoff goes, a
	// waiting one stays however old.
	expired, overflow = b.Prune(now.Add(-(tasks.MaxFinished-5)*time.Second + time.Second/2))
	if len(expired) != 5 || expired[0] != "f005" || expired[4] != "f009" || len(overflow) != 0 {
		t.Fatalf("pruned by age: expired %v, past the bound %v", expired, overflow)
	}
	if _, ok := b.Get("f010"); !ok {
		t.Fatal("a task that ended within the retention was dropped")
	}
	if _, ok := b.Get("new"); !ok {
		t.Fatal("a waiting request was pruned by age")
	}
}
