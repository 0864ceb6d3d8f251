package limits_test

import (
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors/limits"
)

func TestBucketsArePerAgentAndRefill(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := limits.New(func() time.Time { return now })
	for i := range limits.TaskRequestBurst {
		if !l.TaskRequest("a") {
			t.Fatalf("request %d of the burst refused", i+1)
		}
	}
	if l.TaskRequest("a") {
		t.Fatal("a request past the burst was allowed")
	}
	if !l.TaskRequest("b") {
		t.Fatal("another agent's request was refused: buckets are shared")
	}
	now = now.Add(limits.TaskRequestEvery)
	if !l.TaskRequest("a") || l.TaskRequest("a") {
		t.Fatal("one interval should refill exactly one request")
	}
	for range limits.RefusalBurst {
		l.Refusal("a")
	}
	if l.Refusal("a") {
		t.Fatal("a refusal past the burst was recorded")
	}
	l.Forget("a")
	if !l.Refusal("a") {
		t.Fatal("a forgotten agent starts with a full bucket")
	}
}
