// Package eventstest helps tests wait on events instead of polling.
package eventstest

import (
	"context"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// Wait bounds how long a test waits for an event.
const Wait = 20 * time.Second

// Await waits for the first event match accepts, failing the test when none
// comes within Wait. what says what the test waits for, for the failure.
func Await(t testing.TB, sub *events.Subscription, what string, match func(messages.Event) bool) messages.Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Wait)
	defer cancel()
	for {
		ev, err := sub.Next(ctx)
		if err != nil {
			t.Fatalf("no event %s came: %v", what, err)
		}
		if match(ev) {
			return ev
		}
	}
}
