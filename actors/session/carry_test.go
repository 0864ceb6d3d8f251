package session_test

import (
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/actortest"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/actors/session"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// TestARestartedSessionKeepsTheStepsTheLedgerHasNotCommitted crashes a
// session while the ledger commits nothing: the step counters it wrote
// are still waiting there, yet the restarted session counts every step
// taken, the one of the act the crash cut short included.
func TestARestartedSessionKeepsTheStepsTheLedgerHasNotCommitted(t *testing.T) {
	sys := actortest.System(t)
	clock := actortest.NewClock(time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC))
	store, led := actortest.Ledger(t, sys)
	actortest.Write(t, sys, led, ledger.Put(ledger.TaskKey("c1"), ledger.Task{Conversation: "c1", Agent: "ada",
		Description: "test", State: ledger.TaskActive, MaxSteps: 80, Expires: clock.Now().Add(time.Minute)}))
	held := make(chan struct{})
	store.BeforeCommit(func() { <-held })
	t.Cleanup(func() { close(held) }) // before the system stops (cleanups run last first)

	var crash atomic.Bool
	drv := sim.New(sim.Config{})
	pid := sys.Root.Spawn(actor.PropsFromProducer(session.New(session.Config{
		Conversation: "c1", Agent: "ada", Store: store, Ledger: led, Controller: actortest.NewProbe(t, sys, nil).PID,
		Driver: drv, Policy: open{}, Bus: events.New(), Now: clock.Now, Log: slog.New(slog.DiscardHandler),
		Chaos: func() bool { return crash.CompareAndSwap(true, false) },
	})))
	act := func(in *messages.ActInput) *messages.ToolResult {
		call := &messages.ToolCall{Tool: messages.ToolAct, Conversation: "c1", Act: in}
		return actortest.Ask[*messages.ToolResult](t, sys, pid, &messages.AgentCall{Call: call, Agent: "ada"})
	}

	wantCode(t, act(&messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/1"}), "")
	wantCode(t, act(&messages.ActInput{Action: "observe"}), "")
	wantCode(t, act(&messages.ActInput{Action: "observe"}), "")
	crash.Store(true)
	wantCode(t, act(&messages.ActInput{Action: "observe"}), messages.CodeRestarted)

	if got, err := store.Steps("c1"); err != nil || got.Used != 0 {
		t.Fatalf("the store holds %d steps (%v): the ledger committed what the test meant to hold back", got.Used, err)
	}
	r := act(&messages.ActInput{Action: "observe"})
	obs, ok := r.Result.(*messages.Observation)
	if !ok {
		t.Fatalf("observe after the restart answered %+v (%+v)", r.Result, r.Error)
	}
	if obs.StepsLeft != 80-5 {
		t.Errorf("after five steps and a restart %d steps are left, want %d", obs.StepsLeft, 80-5)
	}
}
