package session_test

import (
	"bytes"
	"fmt"
	"image/jpeg"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors/actortest"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/events/eventstest"
	"github.com/buddi-dev/buddi/messages"
)

// step acts and returns the step event the act published.
func (w *world) step(t *testing.T, steps *events.Subscription, in *messages.ActInput) (*messages.ToolResult, *messages.StepTaken) {
	t.Helper()
	r := w.act(t, in)
	ev := eventstest.Await(t, steps, "for the "+in.Action+" step", func(ev messages.Event) bool {
		return ev.(*messages.StepTaken).Action == in.Action
	})
	return r, ev.(*messages.StepTaken)
}

func TestAWatchedConversationLeavesAPictureOfEveryStep(t *testing.T) {
	w := start(t, sim.Config{}, nil)
	steps := w.bus.Subscribe(events.Filter{Kinds: messages.KindStep})
	defer steps.Close()
	w.sys.Root.Send(w.pid, &messages.BindSurface{Surface: messages.SurfaceTelegram})

	_, nav := w.step(t, steps, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/1"})
	if _, err := jpeg.DecodeConfig(bytes.NewReader(nav.Picture)); err != nil {
		t.Fatalf("the navigate left no picture: %v", err)
	}
	if nav.Title != "Page 1 - sim.localhost" || nav.Words != "Opened "+sim.Origin+"/p/1" || nav.StepsMax != 80 {
		t.Fatalf("navigate step %+v", nav)
	}
	r, obs := w.step(t, steps, &messages.ActInput{Action: "observe"})
	if o := r.Result.(*messages.Observation); len(o.Screenshot) != 0 {
		t.Fatal("the agent got a screenshot it did not ask for")
	}
	if len(obs.Picture) == 0 || obs.Page != nav.Page || obs.Words != "Read the page" {
		t.Fatalf("an observe of the page navigated to: page %q (navigate's %q), picture %d bytes, in words %q",
			obs.Page, nav.Page, len(obs.Picture), obs.Words)
	}
	_, scroll := w.step(t, steps, &messages.ActInput{Action: "scroll", Observation: r.Result.(*messages.Observation).ID, DeltaY: 300})
	if scroll.Page == obs.Page || scroll.Words != "Scrolled by 300 px" {
		t.Fatalf("a scroll kept the page %q, in words %q", scroll.Page, scroll.Words)
	}
	_, failed := w.step(t, steps, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/nowhere"})
	if failed.Code != messages.CodeNavFailed || !strings.Contains(failed.Reason, "/nowhere") || len(failed.Picture) == 0 {
		t.Fatalf("a failed navigate: code %q, reason %q, picture %d bytes", failed.Code, failed.Reason, len(failed.Picture))
	}
}

func TestAConversationNobodyWatchesTakesNoPicture(t *testing.T) {
	w := start(t, sim.Config{}, nil)
	steps := w.bus.Subscribe(events.Filter{Kinds: messages.KindStep})
	defer steps.Close()
	_, nav := w.step(t, steps, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/1"})
	_, obs := w.step(t, steps, &messages.ActInput{Action: "observe"})
	if len(nav.Picture) != 0 || len(obs.Picture) != 0 {
		t.Fatal("a conversation bound to no surface took pictures")
	}
}

func TestAPausedRefusalNamesTheWayBackOnTheBoundSurface(t *testing.T) {
	w := start(t, sim.Config{Faults: sim.Faults{TargetMiss: 1}}, nil)
	wantCode(t, w.act(t, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/1"}), "")
	for range 3 {
		id := w.act(t, &messages.ActInput{Action: "observe"}).Result.(*messages.Observation).ID
		w.act(t, &messages.ActInput{Action: "click", Observation: id, Target: &messages.TargetRef{Ref: "e2"}})
	}
	r := w.act(t, &messages.ActInput{Action: "observe"})
	wantCode(t, r, messages.CodePaused)
	if !strings.Contains(r.Error.Message, "`buddi resume c1`") {
		t.Fatalf("unbound: %q", r.Error.Message)
	}
	w.sys.Root.Send(w.pid, &messages.BindSurface{Surface: messages.SurfaceTelegram})
	r = w.act(t, &messages.ActInput{Action: "observe"})
	if !strings.Contains(r.Error.Message, "/browser resume in their Telegram chat") {
		t.Fatalf("bound to Telegram: %q", r.Error.Message)
	}
}

// An act shows the session working to the owner's list always, and to
// subscribers only when one watches sessions. With a watcher, a passive
// record sees the working state, with the act's steps, while the act runs;
// with none, it sees nothing until the act ends. Either way the routing
// entry says working with the steps meanwhile, and the act's end shows the
// session ready with its steps, to both.
func TestAnActShowsItBeganToSubscribersOnlyWhenSessionsAreWatched(t *testing.T) {
	for _, watched := range []bool{false, true} {
		t.Run(fmt.Sprintf("watched=%v", watched), func(t *testing.T) {
			sd := sim.New(sim.Config{})
			h := &heldStep{Driver: sd, started: make(chan time.Time, 1), letGo: make(chan struct{})}
			w := startOn(t, sd, h, nil, open{})
			wantCode(t, w.act(t, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/1"}), "")
			// The session answers an act before it shows its end: once it
			// answers the owner, that navigate's ready state went out
			// before anyone below subscribed.
			w.owner(t, &messages.Screenshots{})
			if watched {
				watcher := w.bus.Subscribe(events.Filter{Kinds: messages.KindSession})
				defer watcher.Close()
			}
			record := w.bus.Subscribe(events.Filter{Kinds: messages.KindSession, Passive: true})
			defer record.Close()

			call := &messages.AgentCall{Agent: "ada", Call: &messages.ToolCall{Tool: messages.ToolAct, Conversation: "c1",
				Act: &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/2"}}}
			reply := w.sys.Root.RequestFuture(w.pid, call, actortest.Wait)
			select {
			case <-h.started:
			case <-time.After(actortest.Wait):
				close(h.letGo)
				t.Fatal("the navigate did not reach the tabs")
			}
			// Once the session answers the owner, it has handled the call
			// whole; a marker published then comes after whatever it showed.
			w.owner(t, &messages.Screenshots{})
			listed := w.route.Shown()
			w.bus.Publish(&messages.SessionChanged{Session: messages.SessionInfo{Conversation: "marker"}})
			first := eventstest.Await(t, record, "while the act runs", func(messages.Event) bool { return true }).(*messages.SessionChanged)
			close(h.letGo)
			if listed.State != messages.StateWorking || listed.StepsUsed != 2 || listed.URL != sim.Origin+"/p/1" || listed.Task != "test" {
				t.Errorf("the owner's list showed %+v while the act ran, want working with 2 steps on /p/1", listed)
			}
			switch s := first.Session; {
			case watched && (s.Conversation != "c1" || s.State != messages.StateWorking || s.StepsUsed != 2):
				t.Errorf("a watched session showed %s in state %s with %d steps while its act ran, want c1 working with 2", s.Conversation, s.State, s.StepsUsed)
			case !watched && s.Conversation != "marker":
				t.Errorf("a session nobody watches showed %s in state %s to a passive record while its act ran", s.Conversation, s.State)
			}
			if res, err := reply.Result(); err != nil {
				t.Fatalf("the navigate was not answered: %v", err)
			} else {
				wantCode(t, res.(*messages.ToolResult), "")
			}
			eventstest.Await(t, record, "the session ready after the act, with its steps", func(ev messages.Event) bool {
				s := ev.(*messages.SessionChanged).Session
				return s.Conversation == "c1" && s.State == messages.StateReady && s.StepsUsed == 2 && s.URL == sim.Origin+"/p/2"
			})
			if s := w.route.Shown(); s.State != messages.StateReady || s.StepsUsed != 2 || s.URL != sim.Origin+"/p/2" {
				t.Errorf("the owner's list showed %+v after the act, want ready with 2 steps on /p/2", s)
			}
		})
	}
}
