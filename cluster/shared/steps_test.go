package shared_test

import (
	"errors"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/shared"
)

// A conversation's steps are written only by the member etcd names as
// holding it, and count only for the task they were written for.
func TestStepsAreTheHoldersAndTheirTasks(t *testing.T) {
	s := open(t, etcdtest.Start(t))
	task := time.Date(2026, 12, 1, 23, 0, 0, 123456789, time.UTC)
	if _, _, err := s.Swap(ctxFor(t), shared.Homes, "c1", []byte("m1")); err != nil {
		t.Fatal(err)
	}
	if err := s.PutSteps(ctxFor(t), "c1", "m1", shared.TaskSteps{Task: task, Used: 7}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Swap(ctxFor(t), shared.Homes, "c1", []byte("m2")); err != nil {
		t.Fatal(err)
	}
	if err := s.PutSteps(ctxFor(t), "c1", "m1", shared.TaskSteps{Task: task, Used: 2}); !errors.Is(err, shared.ErrNotHome) {
		t.Fatalf("a member that lost the conversation wrote its steps: %v", err)
	}
	for name, c := range map[string]struct {
		task time.Time
		want int
	}{
		"the task they were written for": {task.In(time.FixedZone("x", 3600)), 7},
		"a later task":                   {task.Add(time.Second), 0},
	} {
		got, err := s.StepsOf(ctxFor(t), "c1", c.task)
		if err != nil || got != c.want {
			t.Errorf("%s: %d steps (%v), want %d", name, got, err, c.want)
		}
	}
	if got, err := s.StepsOf(ctxFor(t), "none", task); err != nil || got != 0 {
		t.Errorf("a conversation without steps has %d (%v), want 0", got, err)
	}
}
