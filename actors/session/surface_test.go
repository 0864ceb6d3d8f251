package session_test

import (
	"bytes"
	"image/jpeg"
	"strings"
	"testing"

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
	if len(obs.Picture) == 0 || obs.Page != nav.Page {
		t.Fatalf("an observe of the page navigated to: page %q (navigate's %q), picture %d bytes",
			obs.Page, nav.Page, len(obs.Picture))
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
