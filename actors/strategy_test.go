package actors_test

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors"
)

type boom struct{}

// child panics on *boom and counts its starts.
type child struct{ starts *atomic.Int32 }

func (c *child) Receive(ctx actor.Context) {
	switch ctx.Message().(type) {
	case *actor.Started:
		c.starts.Add(1)
	case *boom:
		panic("child blew up")
	}
}

// recorder is the grandparent: it records what its child escalates.
type recorder struct {
	mu        sync.Mutex
	escalated []any
}

func (r *recorder) HandleFailure(_ *actor.ActorSystem, sup actor.Supervisor, child *actor.PID, _ *actor.RestartStatistics, reason any, _ any) {
	r.mu.Lock()
	r.escalated = append(r.escalated, reason)
	r.mu.Unlock()
	sup.StopChildren(child)
}

func (r *recorder) reasons() []any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]any(nil), r.escalated...)
}

func TestPanickingChildRestartsThenEscalates(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&syncWriter{w: &logs}, nil))
	sys := actors.NewSystem(log)
	defer sys.Shutdown()

	var starts atomic.Int32
	var restarts atomic.Int32
	strategy := &actors.Backoff{Initial: time.Millisecond, Max: 4 * time.Millisecond, MaxRestarts: 3,
		Window: time.Minute, Escalate: true, Log: log, OnRestart: func(*actor.PID, any) { restarts.Add(1) }}
	childPID := make(chan *actor.PID, 1)
	rec := &recorder{}
	parentProps := actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*actor.Started); ok {
			childPID <- ctx.Spawn(actor.PropsFromProducer(func() actor.Actor { return &child{starts: &starts} }))
		}
	}, actor.WithSupervisor(strategy))
	sys.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*actor.Started); ok {
			ctx.Spawn(parentProps)
		}
	}, actor.WithSupervisor(rec)))
	pid := <-childPID

	for i := 1; i <= 3; i++ {
		sys.Root.Send(pid, &boom{})
		waitFor(t, func() bool { return restarts.Load() == int32(i) && starts.Load() == int32(i+1) },
			"restart %d", i)
	}
	if len(rec.reasons()) != 0 {
		t.Fatalf("escalated before the cap: %v", rec.reasons())
	}
	sys.Root.Send(pid, &boom{}) // the fourth failure passes the cap of three
	waitFor(t, func() bool { return len(rec.reasons()) == 1 }, "escalation after the cap")
	gave, ok := rec.reasons()[0].(*actors.GaveUp)
	if !ok || !strings.Contains(gave.Error(), "child blew up") {
		t.Fatalf("escalated %T %v, want *actors.GaveUp naming the panic", rec.reasons()[0], rec.reasons()[0])
	}
	if restarts.Load() != 3 {
		t.Fatalf("restarted %d times, want 3", restarts.Load())
	}
	if n := strings.Count(logs.String(), "actor panicked; restarting"); n != 3 {
		t.Fatalf("logged %d restart lines, want one per failure (3):\n%s", n, logs.String())
	}
	if !strings.Contains(logs.String(), "actor="+pid.Id) {
		t.Fatalf("the log lines do not name the actor %s:\n%s", pid.Id, logs.String())
	}
}

func TestBackoffDelayDoublesUpToMax(t *testing.T) {
	b := &actors.Backoff{Initial: 10 * time.Millisecond, Max: 50 * time.Millisecond}
	want := []time.Duration{10, 20, 40, 50, 50}
	for i, w := range want {
		if got := actors.Delay(b, i+1); got != w*time.Millisecond {
			t.Fatalf("delay after %d failures = %v, want %v", i+1, got, w*time.Millisecond)
		}
	}
}

func waitFor(t *testing.T, cond func() bool, what string, args ...any) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for "+what, args...)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
