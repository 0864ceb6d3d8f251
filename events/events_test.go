package events_test

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

func session(conv string, steps int) *messages.SessionChanged {
	return &messages.SessionChanged{Session: messages.SessionInfo{Conversation: conv, StepsUsed: steps}}
}

func TestANewerEventReplacesTheWaitingOneInItsPlace(t *testing.T) {
	b := events.New()
	sub := b.Subscribe(events.Filter{})
	defer sub.Close()
	b.Publish(session("a", 1))
	b.Publish(&messages.StopChanged{Stopped: true})
	b.Publish(session("a", 2))
	got := sub.Drain()
	if len(got) != 2 {
		t.Fatalf("got %d events, want 2 (a's two changes coalesced)", len(got))
	}
	if s, ok := got[0].(*messages.SessionChanged); !ok || s.Session.StepsUsed != 2 {
		t.Fatalf("first event %#v, want a's latest change in a's place", got[0])
	}
	if _, ok := got[1].(*messages.StopChanged); !ok {
		t.Fatalf("second event %#v, want the stop", got[1])
	}
}

func TestAFullQueueDropsItsOldestAndCountsIt(t *testing.T) {
	b := events.New()
	sub := b.Subscribe(events.Filter{Size: 3})
	defer sub.Close()
	for i := range 5 {
		b.Publish(session("c"+strconv.Itoa(i), i))
	}
	got := sub.Drain()
	if len(got) != 3 || got[0].About() != "c2" || got[2].About() != "c4" {
		t.Fatalf("kept %v, want the newest three", got)
	}
	if sub.Dropped() != 2 {
		t.Fatalf("dropped %d, want 2", sub.Dropped())
	}
}

func TestPublishNeverWaitsForASubscriberThatDoesNotRead(t *testing.T) {
	b := events.New()
	slow := b.Subscribe(events.Filter{Size: 8})
	defer slow.Close()
	done := make(chan struct{})
	go func() {
		for i := range 100000 {
			b.Publish(session("c"+strconv.Itoa(i%50), i))
		}
		close(done)
	}()
	<-done // a blocked Publish would hang here; the test's deadline would fail it
	if slow.Dropped() == 0 {
		t.Fatal("a subscriber that never read was not told it missed events")
	}
}

func TestFilterPicksKindsAndConversation(t *testing.T) {
	b := events.New()
	sub := b.Subscribe(events.Filter{Kinds: messages.KindSession | messages.KindStop, Conversation: "a"})
	defer sub.Close()
	b.Publish(session("b", 1))
	b.Publish(&messages.StepTaken{Conversation: "a"})
	b.Publish(session("a", 1))
	b.Publish(&messages.StopChanged{Stopped: true}) // about every conversation
	got := sub.Drain()
	if len(got) != 2 || got[0].About() != "a" || got[1].Kind() != messages.KindStop {
		t.Fatalf("got %v, want a's session change and the stop", got)
	}
}

func TestNextWaitsForAnEventAndEndsWithClose(t *testing.T) {
	b := events.New()
	sub := b.Subscribe(events.Filter{})
	got := make(chan messages.Event, 1)
	go func() {
		ev, _ := sub.Next(context.Background())
		got <- ev
	}()
	b.Publish(session("a", 7))
	if ev := <-got; ev.(*messages.SessionChanged).Session.StepsUsed != 7 {
		t.Fatalf("Next gave %#v", ev)
	}
	ended := make(chan error, 1)
	go func() {
		_, err := sub.Next(context.Background())
		ended <- err
	}()
	sub.Close()
	if err := <-ended; !errors.Is(err, events.ErrClosed) {
		t.Fatalf("Next after Close: %v", err)
	}
	if b.Subscribers() != 0 {
		t.Fatal("a closed subscription is still subscribed")
	}
	b.Publish(session("a", 8)) // nobody listens: nothing blocks, nothing panics
}

func TestNextEndsWithItsContext(t *testing.T) {
	sub := events.New().Subscribe(events.Filter{})
	defer sub.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	if _, err := sub.Next(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Next: %v", err)
	}
}

func TestQueueStaysInOrderThroughManyTakes(t *testing.T) {
	b := events.New()
	sub := b.Subscribe(events.Filter{Size: 1000})
	defer sub.Close()
	ctx := context.Background()
	next := 0
	for round := range 20 {
		for i := range 50 {
			b.Publish(session("c"+strconv.Itoa(round*50+i), round*50+i))
		}
		for range 50 {
			ev, err := sub.Next(ctx)
			if err != nil || ev.(*messages.SessionChanged).Session.StepsUsed != next {
				t.Fatalf("event %d: %v %v", next, ev, err)
			}
			next++
		}
	}
}

// A nil bus drops events: actors tested without subscribers publish into it.
func TestNilBusDropsEvents(t *testing.T) {
	var b *events.Bus
	b.Publish(session("a", 1))
}

func TestOnlyAnActiveSubscriptionWatches(t *testing.T) {
	b := events.New()
	passive := b.Subscribe(events.Filter{Kinds: messages.KindSnapshot, Passive: true})
	defer passive.Close()
	if b.Watched(messages.KindSnapshot) {
		t.Fatal("a passive subscription counts as watching")
	}
	active := b.Subscribe(events.Filter{Kinds: messages.KindSession | messages.KindSnapshot})
	if !b.Watched(messages.KindSnapshot) || b.Watched(messages.KindStop) {
		t.Fatal("Watched does not follow the active subscription's kinds")
	}
	active.Close()
	if b.Watched(messages.KindSnapshot) {
		t.Fatal("a closed subscription still watches")
	}
	b.Publish(&messages.SnapshotTaken{Snapshot: messages.Snapshot{Conversation: "a"}})
	if got := passive.Drain(); len(got) != 1 {
		t.Fatalf("the passive subscription got %d snapshots, want the one published", len(got))
	}
}

// What another member watches counts as watched until its time runs out,
// joined with what was said before it, but not as watched here.
func TestWatchingElsewhereCountsUntilItsTime(t *testing.T) {
	b := events.New()
	b.WatchElsewhere(messages.KindSnapshot, time.Now().Add(time.Hour))
	if !b.Watched(messages.KindSnapshot) || !b.WatchedElsewhere(messages.KindSnapshot) || b.WatchedHere(messages.KindSnapshot) {
		t.Fatal("a snapshot watched elsewhere is not counted as watched, or counted as watched here")
	}
	b.WatchElsewhere(messages.KindStep, time.Now().Add(-time.Second))
	if !b.Watched(messages.KindSnapshot) || b.Watched(messages.KindStop) {
		t.Fatal("a watch already over replaced a running one, or another kind counts")
	}
	b.WatchElsewhere(messages.KindStep, time.Now().Add(time.Hour))
	if !b.Watched(messages.KindStep) || !b.Watched(messages.KindSnapshot) {
		t.Fatal("a second member's watch did not join the first's")
	}
	over := events.New()
	over.WatchElsewhere(messages.KindSnapshot, time.Now().Add(-time.Millisecond))
	if over.Watched(messages.KindSnapshot) {
		t.Fatal("a watch whose time ran out still counts")
	}
}
