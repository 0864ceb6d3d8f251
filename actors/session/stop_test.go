package session_test

import (
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/events/eventstest"
	"github.com/buddi-dev/buddi/messages"
)

// After a Stop the session shows stopped, with no page, and refuses the
// agent and a take-over; once access is resumed the agent starts afresh:
// its old observation is refused and a new one works.
func TestAStoppedSessionSaysSoAndStartsAfreshWhenAccessResumes(t *testing.T) {
	w := start(t, sim.Config{}, nil)
	sessions := w.bus.Subscribe(events.Filter{Kinds: messages.KindSession})
	defer sessions.Close()
	wantCode(t, w.act(t, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/1"}), "")
	obs := w.act(t, &messages.ActInput{Action: "observe"}).Result.(*messages.Observation)

	r := w.owner(t, &messages.StopAll{})
	if info, ok := r.Result.(*messages.SessionInfo); !ok || info.State != messages.StateStopped || info.URL != "" {
		t.Fatalf("the Stop was answered %+v, want the session stopped with no page", r.Result)
	}
	eventstest.Await(t, sessions, "the session shown stopped", func(ev messages.Event) bool {
		s := ev.(*messages.SessionChanged).Session
		return s.State == messages.StateStopped && s.URL == ""
	})
	wantCode(t, w.act(t, &messages.ActInput{Action: "observe"}), messages.CodeStopped)
	if r := w.owner(t, &messages.TakeOver{Conversation: "c1"}); r.Error == nil || r.Error.Code != messages.CodeStopped {
		t.Fatalf("a take-over during the Stop was answered %+v", r)
	}

	w.sys.Root.Send(w.pid, &messages.ResumeAll{})
	eventstest.Await(t, sessions, "the session shown ready again", func(ev messages.Event) bool {
		return ev.(*messages.SessionChanged).Session.State == messages.StateReady
	})
	click := &messages.ActInput{Action: "click", Observation: obs.ID, Target: &messages.TargetRef{Ref: "e1"}}
	wantCode(t, w.act(t, click), messages.CodeStaleObservation)
	wantCode(t, w.act(t, &messages.ActInput{Action: "observe"}), "")
}

// A picture of the page is taken after a step that may change it, with
// nobody watching, and the owner's snapshot is of the page as it is.
func TestAPictureFollowsAStepWithNobodyWatching(t *testing.T) {
	w := start(t, sim.Config{}, nil)
	pics := w.bus.Subscribe(events.Filter{Kinds: messages.KindSnapshot})
	defer pics.Close()
	wantCode(t, w.act(t, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/1"}), "")
	eventstest.Await(t, pics, "a picture after the navigate", func(ev messages.Event) bool {
		return ev.(*messages.SnapshotTaken).Snapshot.URL == sim.Origin+"/p/1"
	})
	w.clock.Advance(100 * time.Millisecond)
	wantCode(t, w.act(t, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/2"}), "")
	w.clock.Advance(100 * time.Millisecond)
	r := w.owner(t, &messages.SnapshotOf{Conversation: "c1"})
	if s, ok := r.Result.(*messages.Snapshot); !ok || s.URL != sim.Origin+"/p/2" {
		t.Fatalf("the owner's snapshot right after the second navigate is not of the page it opened: %v", r.Error)
	}
}
