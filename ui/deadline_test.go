package ui

import (
	"context"
	"errors"
	"testing"
	"time"
)

// ended waits, at most a while, for c to end and says whether it did.
func ended(c context.Context) bool {
	select {
	case <-c.Done():
		return true
	case <-time.After(10 * time.Second):
		return false
	}
}

func TestARequestsContextEndsWhenCancelled(t *testing.T) {
	c, cancel := deadline(time.Hour)
	if at, ok := c.Deadline(); !ok || time.Until(at) < 59*time.Minute {
		t.Fatalf("deadline %v %v, want an hour from now", at, ok)
	}
	child, stop := context.WithCancel(c)
	defer stop()
	if c.Err() != nil {
		t.Fatalf("a fresh context ended: %v", c.Err())
	}
	cancel()
	if !ended(c) || !errors.Is(c.Err(), context.Canceled) {
		t.Fatalf("cancelled: %v, want canceled", c.Err())
	}
	if !ended(child) || !errors.Is(child.Err(), context.Canceled) {
		t.Fatalf("a child of a cancelled context: %v, want canceled", child.Err())
	}
	cancel() // again: nothing changes
	if !errors.Is(c.Err(), context.Canceled) {
		t.Fatalf("cancelled twice: %v", c.Err())
	}
}

func TestARequestsContextEndsAtItsDeadline(t *testing.T) {
	past, cancel := deadline(-time.Second)
	defer cancel()
	if !errors.Is(past.Err(), context.DeadlineExceeded) || !ended(past) {
		t.Fatalf("a past deadline: %v, want deadline exceeded", past.Err())
	}
	soon, cancel := deadline(10 * time.Millisecond)
	defer cancel()
	if !ended(soon) || !errors.Is(soon.Err(), context.DeadlineExceeded) {
		t.Fatalf("a deadline that passed: %v, want deadline exceeded", soon.Err())
	}
	cancel()
	if !errors.Is(soon.Err(), context.DeadlineExceeded) {
		t.Fatalf("cancelled after its deadline: %v, want deadline exceeded still", soon.Err())
	}
}
