package session_test

import (
	"context"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
)

// starting is a sim driver whose browser starts in the background: Ready
// waits for up, or answers refuse when it is set.
type starting struct {
	*sim.Driver
	up      chan struct{}
	entered chan struct{} // told when an act first waits in Ready
	refuse  error
}

var _ drivers.Readier = (*starting)(nil)

func (s *starting) Ready(ctx context.Context) (time.Duration, error) {
	start := time.Now()
	select {
	case s.entered <- struct{}{}:
	default:
	}
	if s.refuse != nil {
		return 0, s.refuse
	}
	select {
	case <-s.up:
		return time.Since(start), nil
	case <-ctx.Done():
		return time.Since(start), drivers.Errorf(drivers.CodeStarting, nil, "The browser is still starting; try again in about 10 s.")
	}
}

func startStarting(t *testing.T, refuse error) (*world, *starting) {
	t.Helper()
	sd := sim.New(sim.Config{})
	s := &starting{Driver: sd, up: make(chan struct{}), entered: make(chan struct{}, 1), refuse: refuse}
	return startOn(t, sd, s, nil, open{}), s
}

// An act that arrives while the browser starts waits for it, and its
// answer says how long.
func TestAnActWaitsForTheBrowserAndSaysHowLong(t *testing.T) {
	w, s := startStarting(t, nil)
	go func() { <-s.entered; time.Sleep(50 * time.Millisecond); close(s.up) }() // the act waits 50 ms at least
	r := w.act(t, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/1"})
	out, ok := r.Result.(*messages.Outcome)
	if !ok || out.Timing == nil || out.Timing.BrowserWaitMs < 50 {
		t.Fatalf("navigate answered %+v (%+v), want an outcome that waited at least 50 ms", r.Result, r.Error)
	}
	r = w.act(t, &messages.ActInput{Action: "observe"})
	if obs, ok := r.Result.(*messages.Observation); !ok || obs.Timing != nil {
		t.Fatalf("observe with the browser up answered %+v", r.Result)
	}
}

// A browser that cannot be waited for is the act's answer, with its code
// and sentence; nothing reached a page, and the next act runs.
func TestAnActThatCannotWaitForTheBrowserSaysWhenToTryAgain(t *testing.T) {
	refusal := drivers.Errorf(drivers.CodeStarting, nil, "The browser is still starting; try again in about 10 s.")
	w, s := startStarting(t, refusal)
	r := w.act(t, &messages.ActInput{Action: "observe"})
	wantCode(t, r, messages.CodeBrowserStarting)
	if r.Error.Message != refusal.Message {
		t.Fatalf("the refusal says %q", r.Error.Message)
	}
	s.refuse = nil
	close(s.up)
	wantCode(t, w.act(t, &messages.ActInput{Action: "observe"}), "")
}
