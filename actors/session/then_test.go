package session_test

import (
	"regexp"
	"testing"

	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
)

var linkRef = regexp.MustCompile(`link "[^"]*" \[ref=(e\d+)\]`)

// An action sent with thenObserve answers with the observation of the page
// after it: its refs act at once, naming its id, and it costs two steps.
func TestAnActionThatObservesAfterAnswersWithThePageAfterIt(t *testing.T) {
	w := start(t, sim.Config{}, nil)
	r := w.act(t, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/1", ThenObserve: true})
	wantCode(t, r, "")
	obs, ok := r.Result.(*messages.Observation)
	if !ok || obs.Outcome != "loaded" || obs.URL != sim.Origin+"/p/1" || obs.StepsLeft != 78 {
		t.Fatalf("navigate with thenObserve answered %#v", r.Result)
	}
	m := linkRef.FindStringSubmatch(obs.Text)
	if m == nil {
		t.Fatalf("the observation shows no link:\n%s", obs.Text)
	}
	r = w.act(t, &messages.ActInput{Action: "click", Observation: obs.ID,
		Target: &messages.TargetRef{Ref: m[1]}, ThenObserve: true})
	wantCode(t, r, "")
	after, ok := r.Result.(*messages.Observation)
	if !ok || after.Outcome == "" || after.ID == obs.ID || after.StepsLeft != 76 {
		t.Fatalf("click with thenObserve answered %#v", r.Result)
	}
	// The observation the click brought is the latest: its refs act.
	first := m[1]
	if m = linkRef.FindStringSubmatch(after.Text); m == nil {
		t.Fatalf("the observation after the click shows no link:\n%s", after.Text)
	}
	r = w.act(t, &messages.ActInput{Action: "click", Observation: after.ID, Target: &messages.TargetRef{Ref: m[1]}})
	wantCode(t, r, "")
	if out, ok := r.Result.(*messages.Outcome); !ok || out.Next != messages.ObserveAgain {
		t.Fatalf("a click without thenObserve answered %#v", r.Result)
	}
	// The navigate's observation is long out of date.
	wantCode(t, w.act(t, &messages.ActInput{Action: "click", Observation: obs.ID,
		Target: &messages.TargetRef{Ref: first}}), messages.CodeStaleObservation)
}
