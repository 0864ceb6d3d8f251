package bounded_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/internal/bounded"
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

func TestAContextEndsWhenCancelled(t *testing.T) {
	c := bounded.New(time.Hour)
	if at, ok := c.Deadline(); !ok || time.Until(at) < 59*time.Minute {
		t.Fatalf("deadline %v %v, want an hour from now", at, ok)
	}
	// By the wall clock alone too, as another member reads a deadline
	// sent to it.
	if at, _ := c.Deadline(); at.Round(0).Sub(time.Now().Round(0)) < 59*time.Minute || at.Round(0).Sub(time.Now().Round(0)) > time.Hour {
		t.Fatalf("deadline %v by the wall clock, want an hour from now", at.Round(0))
	}
	child, stop := context.WithCancel(c)
	defer stop()
	if c.Err() != nil {
		t.Fatalf("a fresh context ended: %v", c.Err())
	}
	c.Cancel()
	if !ended(c) || !errors.Is(c.Err(), context.Canceled) {
		t.Fatalf("cancelled: %v, want canceled", c.Err())
	}
	if !ended(child) || !errors.Is(child.Err(), context.Canceled) {
		t.Fatalf("a child of a cancelled context: %v, want canceled", child.Err())
	}
	c.Cancel() // again: nothing changes
	if !errors.Is(c.Err(), context.Canceled) {
		t.Fatalf("cancelled twice: %v", c.Err())
	}
}

func TestAContextEndsAtItsDeadline(t *testing.T) {
	past := bounded.New(-time.Second)
	defer past.Cancel()
	if !errors.Is(past.Err(), context.DeadlineExceeded) || !ended(past) {
		t.Fatalf("a past deadline: %v, want deadline exceeded", past.Err())
	}
	soon := bounded.New(10 * time.Millisecond)
	defer soon.Cancel()
	if !ended(soon) || !errors.Is(soon.Err(), context.DeadlineExceeded) {
		t.Fatalf("a deadline that passed: %v, want deadline exceeded", soon.Err())
	}
	soon.Cancel()
	if !errors.Is(soon.Err(), context.DeadlineExceeded) {
		t.Fatalf("cancelled after its deadline: %v, want deadline exceeded still", soon.Err())
	}
}

// A child made before anyone asked the parent for Done ends at the
// parent's deadline: making it arms the parent's timer.
func TestAChildEndsAtItsParentsDeadline(t *testing.T) {
	c := bounded.New(10 * time.Millisecond)
	defer c.Cancel()
	child, stop := context.WithTimeout(c, time.Hour)
	defer stop()
	if !ended(child) || !errors.Is(child.Err(), context.DeadlineExceeded) {
		t.Fatalf("the child of a context past its deadline: %v, want deadline exceeded", child.Err())
	}
}

// A func given to AfterFunc runs once the context ends, unless stopped
// before; a child's own cancel stops its tie to the parent.
func TestAfterFuncRunsOnceItEndsUnlessStopped(t *testing.T) {
	c := bounded.New(time.Hour)
	ran := make(chan string, 3)
	stopA := context.AfterFunc(c, func() { ran <- "a" })
	stopB := context.AfterFunc(c, func() { ran <- "b" })
	stopC := context.AfterFunc(c, func() { ran <- "c" })
	if !stopB() { // given between two others
		t.Fatal("stop before the end said the func had started")
	}
	child, cancelChild := context.WithCancel(c)
	cancelChild()
	if !errors.Is(child.Err(), context.Canceled) || c.Err() != nil {
		t.Fatalf("a child cancelled alone: child %v, parent %v; want the child alone ended", child.Err(), c.Err())
	}
	c.Cancel()
	got := map[string]bool{}
	for range 2 {
		select {
		case f := <-ran:
			got[f] = true
		case <-time.After(10 * time.Second):
			t.Fatalf("the funcs given to AfterFunc did not run once the context ended: ran %v", got)
		}
	}
	if !got["a"] || !got["c"] {
		t.Fatalf("ran %v, want a and c", got)
	}
	if stopA() || stopC() {
		t.Fatal("stop after the func started said it stopped it")
	}
	select {
	case f := <-ran:
		t.Fatalf("%s ran, stopped before the end", f)
	case <-time.After(50 * time.Millisecond):
	}
	late := make(chan struct{})
	context.AfterFunc(c, func() { close(late) })
	if !endedCh(late) {
		t.Fatal("a func given after the end did not run")
	}
}

// endedCh waits, at most a while, for ch to close.
func endedCh(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	case <-time.After(10 * time.Second):
		return false
	}
}

// A func given to a context that already ended runs at once.
func TestAfterFuncOfAnEndedContextRuns(t *testing.T) {
	c := bounded.New(time.Hour)
	c.Cancel()
	ran := make(chan struct{})
	if stop := c.AfterFunc(func() { close(ran) }); !endedCh(ran) || stop() {
		t.Fatal("a func given to an ended context did not run, or stop said it stopped it")
	}
}
