package daemontest

import (
	"testing"

	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/events/eventstest"
	"github.com/buddi-dev/buddi/messages"
)

// Events subscribes to the daemon's events until the test ends.
func (h *Daemon) Events(t testing.TB, f events.Filter) *events.Subscription {
	t.Helper()
	sub := h.Actors().Subscribe(f)
	t.Cleanup(sub.Close)
	return sub
}

// Await waits for the first event match accepts, failing the test when
// none comes in time.
var Await = eventstest.Await

// WaitSession waits until conv's session is in state, or gone when state is
// "". It subscribes first, then reads the list, then waits on events, so a
// change between the two is never missed.
func (h *Daemon) WaitSession(t testing.TB, conv, state string) {
	t.Helper()
	sub := h.Actors().Subscribe(events.Filter{Kinds: messages.KindSession, Conversation: conv})
	defer sub.Close()
	var list messages.SessionList
	h.Must(t, "GET", "/api/browser/sessions", nil).Decode(&list)
	if inState(list, conv, state) {
		return
	}
	Await(t, sub, "for "+conv+" to be "+stateName(state), func(ev messages.Event) bool {
		s := ev.(*messages.SessionChanged)
		if state == "" {
			return s.Ended
		}
		return !s.Ended && s.Session.State == state
	})
}

func inState(list messages.SessionList, conv, state string) bool {
	for _, s := range list {
		if s.Conversation == conv {
			return s.State == state
		}
	}
	return state == ""
}

func stateName(state string) string {
	if state == "" {
		return "gone"
	}
	return state
}
