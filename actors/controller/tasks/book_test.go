package tasks_test

import (
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors/controller/tasks"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

func TestATaskGoesFromPendingToActiveToEnded(t *testing.T) {
	now := time.Unix(1000, 0)
	b := tasks.New(nil, func() time.Time { return now })
	p := b.Pending("ada", "c1", "look", 0, 0)
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
	ended := tasks.End(a, "Done because.")
	b.Put(ended)
	if e := b.NoTask("c1"); e.Code != messages.CodeNoTask || e.Message != "Done because. Ask the owner for a new task." {
		t.Fatalf("after the end: %v", e)
	}
	if _, e := b.Decidable("c1"); e == nil || e.Code != messages.CodeNoPendingTask {
		t.Fatalf("deciding an ended task: %v", e)
	}
}

func TestRefuseAndOwnership(t *testing.T) {
	b := tasks.New([]ledger.Task{{Conversation: "c1", Agent: "ada", State: ledger.TaskPending}}, time.Now)
	if !b.OtherAgent("c1", "bob") || b.OtherAgent("c1", "ada") || b.OtherAgent("c9", "bob") {
		t.Fatal("OtherAgent is wrong")
	}
	r, e := b.Refuse("c1")
	if e != nil || r.State != ledger.TaskRefused {
		t.Fatalf("refuse: %+v %v", r, e)
	}
	b.Put(r)
	if e := b.NoTask("c1"); e.Code != messages.CodeTaskRefused {
		t.Fatalf("an act after a refusal: %v", e)
	}
	if v := tasks.View(r); v.State != messages.TaskRefused || v.Agent != "ada" {
		t.Fatalf("view = %+v", v)
	}
}
