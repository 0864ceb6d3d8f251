package session_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors/actortest"
	"github.com/buddi-dev/buddi/drivers"
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

// heldStep is a driver whose tabs hold an agent's navigation to /p/2
// until the test lets it go, and count the owner's pictures they take.
type heldStep struct {
	*sim.Driver
	started chan time.Time // when the held step reached the tabs
	letGo   chan struct{}
	shots   atomic.Int32
}

type heldStepTabs struct {
	drivers.Tabs
	h *heldStep
}

func (h *heldStep) Open(ctx context.Context, conversation string) (drivers.Tabs, error) {
	tabs, err := h.Driver.Open(ctx, conversation)
	if err != nil {
		return nil, err
	}
	return heldStepTabs{tabs, h}, nil
}

func (t heldStepTabs) Do(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	switch {
	case a.Owner && a.Kind == drivers.Screenshot:
		t.h.shots.Add(1)
	case !a.Owner && a.Kind == drivers.Navigate && a.URL == sim.Origin+"/p/2":
		t.h.started <- time.Now()
		<-t.h.letGo
	}
	return t.Tabs.Do(ctx, a)
}

// An agent that acts again right after a step does not wait behind that
// step's picture, which holds the tabs while it is captured: no picture is
// taken in between or while the next step runs; one is taken once the
// agent pauses after it, of the page as that step left it.
func TestAStepsPictureWaitsForTheAgentsPause(t *testing.T) {
	sd := sim.New(sim.Config{})
	h := &heldStep{Driver: sd, started: make(chan time.Time, 1), letGo: make(chan struct{})}
	w := startOn(t, sd, h, nil, open{})
	pics := w.bus.Subscribe(events.Filter{Kinds: messages.KindSnapshot})
	defer pics.Close()
	wantCode(t, w.act(t, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/1"}), "")
	answered := time.Now()
	next := &messages.AgentCall{Agent: "ada", Call: &messages.ToolCall{Tool: messages.ToolAct, Conversation: "c1",
		Act: &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/2"}}}
	reply := w.sys.Root.RequestFuture(w.pid, next, actortest.Wait)
	var started time.Time
	select {
	case started = <-h.started:
	case <-time.After(actortest.Wait):
		res, err := reply.Result()
		t.Fatalf("the second navigate did not reach the tabs: %v %v", res, err)
	}
	if gap := started.Sub(answered); gap > 100*time.Millisecond {
		close(h.letGo)
		t.Skipf("the second navigate reached the tabs %v after the navigate's answer, past half the pause a picture waits for", gap)
	}
	time.Sleep(time.Second) // the held step runs past the pause a picture waits for
	if n := h.shots.Load(); n != 0 {
		close(h.letGo)
		t.Fatalf("%d pictures were taken after the navigate while the agent's next step ran, want none", n)
	}
	close(h.letGo)
	if res, err := reply.Result(); err != nil {
		t.Fatalf("the second navigate was not answered: %v", err)
	} else {
		wantCode(t, res.(*messages.ToolResult), "")
	}
	eventstest.Await(t, pics, "a picture once the agent paused after its second step", func(ev messages.Event) bool {
		return ev.(*messages.SnapshotTaken).Snapshot.URL == sim.Origin+"/p/2"
	})
	if n := h.shots.Load(); n != 1 {
		t.Fatalf("%d pictures were taken for the two steps, want one", n)
	}
}

// shotFails is a driver whose tabs fail the owner's pictures while fail
// is above zero, one per count.
type shotFails struct {
	*sim.Driver
	fail   atomic.Int32
	failed atomic.Int32
}

type shotFailsTabs struct {
	drivers.Tabs
	f *shotFails
}

func (f *shotFails) Open(ctx context.Context, conversation string) (drivers.Tabs, error) {
	tabs, err := f.Driver.Open(ctx, conversation)
	if err != nil {
		return nil, err
	}
	return shotFailsTabs{tabs, f}, nil
}

func (t shotFailsTabs) Do(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	if a.Owner && a.Kind == drivers.Screenshot && t.f.fail.Add(-1) >= 0 {
		t.f.failed.Add(1)
		return nil, drivers.Errorf(drivers.CodeNotAnswering, nil, "The page has not answered yet.")
	}
	return t.Tabs.Do(ctx, a)
}

// A step's picture that fails is taken once more, a second later, so the
// surfaces do not keep showing the page before it; one that fails again is
// left to the next step.
func TestAFailedPictureIsTakenOnceMore(t *testing.T) {
	sd := sim.New(sim.Config{})
	f := &shotFails{Driver: sd}
	w := startOn(t, sd, f, nil, open{})
	pics := w.bus.Subscribe(events.Filter{Kinds: messages.KindSnapshot})
	defer pics.Close()
	wantCode(t, w.act(t, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/1"}), "")
	eventstest.Await(t, pics, "a picture after the first navigate", func(ev messages.Event) bool {
		return ev.(*messages.SnapshotTaken).Snapshot.URL == sim.Origin+"/p/1"
	})
	for _, c := range []struct {
		page  int
		fails int32
		want  bool
	}{{2, 1, true}, {3, 2, false}} {
		f.fail.Store(c.fails)
		f.failed.Store(0)
		w.clock.Advance(2 * time.Second) // past the rate bound
		url := fmt.Sprintf("%s/p/%d", sim.Origin, c.page)
		wantCode(t, w.act(t, &messages.ActInput{Action: "navigate", URL: url}), "")
		for deadline := time.Now().Add(eventstest.Wait); f.failed.Load() == 0; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("no picture of %s was tried", url)
			}
		}
		w.clock.Advance(2 * time.Second) // the retry's rate bound
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		var got bool
		for !got {
			ev, err := pics.Next(ctx)
			if err != nil {
				break
			}
			got = ev.(*messages.SnapshotTaken).Snapshot.URL == url
		}
		cancel()
		if got != c.want {
			t.Fatalf("after %d failed pictures of %s, a picture of it published: %v, want %v", c.fails, url, got, c.want)
		}
	}
	if n := f.failed.Load(); n != 2 {
		t.Fatalf("the picture that failed twice was tried %d times, want 2 (one more, then no more)", n)
	}
}

// movedPage is a driver whose owner's pictures find the page at /p/9, as
// if the owner's hand had taken it there.
type movedPage struct{ *sim.Driver }

type movedPageTabs struct{ drivers.Tabs }

func (m movedPage) Open(ctx context.Context, conversation string) (drivers.Tabs, error) {
	tabs, err := m.Driver.Open(ctx, conversation)
	if err != nil {
		return nil, err
	}
	return movedPageTabs{tabs}, nil
}

func (t movedPageTabs) Do(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	out, err := t.Tabs.Do(ctx, a)
	if err != nil || !a.Owner || a.Kind != drivers.Screenshot {
		return out, err
	}
	moved := *out
	moved.URL = sim.Origin + "/p/9"
	return &moved, nil
}

// The session's address follows the page when a picture taken since the
// last step finds it elsewhere (the owner drove it, or a take-over let the
// agent's visit arrive), on every surface that lists sessions.
func TestTheSessionsAddressFollowsThePageItsPictureFinds(t *testing.T) {
	sd := sim.New(sim.Config{})
	w := startOn(t, sd, movedPage{sd}, nil, open{})
	sessions := w.bus.Subscribe(events.Filter{Kinds: messages.KindSession})
	defer sessions.Close()
	wantCode(t, w.act(t, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/1"}), "")
	eventstest.Await(t, sessions, "the session at the page its picture found", func(ev messages.Event) bool {
		return ev.(*messages.SessionChanged).Session.URL == sim.Origin+"/p/9"
	})
}
