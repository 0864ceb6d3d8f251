package actors_test

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors"
)

type boom struct{}

// child panics on *boom and says each time it starts.
type child struct{ started chan<- struct{} }

func (c *child) Receive(ctx actor.Context) {
	switch ctx.Message().(type) {
	case *actor.Started:
		c.started <- struct{}{}
	case *boom:
		panic("child blew up")
	}
}

// recorder is the grandparent: it hands what its child escalates to the test.
type recorder struct{ escalated chan any }

func (r *recorder) HandleFailure(_ *actor.ActorSystem, sup actor.Supervisor, child *actor.PID, _ *actor.RestartStatistics, reason any, _ any) {
	r.escalated <- reason
	sup.StopChildren(child)
}

func TestPanickingChildRestartsThenEscalates(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&syncWriter{w: &logs}, nil))
	sys := actors.NewSystem(log)
	defer sys.Shutdown()

	started, restarted := make(chan struct{}, 8), make(chan struct{}, 8)
	strategy := &actors.Backoff{Initial: time.Millisecond, Max: 4 * time.Millisecond, MaxRestarts: 3,
		Window: time.Minute, Escalate: true, Log: log, OnRestart: func(*actor.PID, any) { restarted <- struct{}{} }}
	childPID := make(chan *actor.PID, 1)
	rec := &recorder{escalated: make(chan any, 4)}
	parentProps := actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*actor.Started); ok {
			childPID <- ctx.Spawn(actor.PropsFromProducer(func() actor.Actor { return &child{started: started} }))
		}
	}, actor.WithSupervisor(strategy))
	sys.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*actor.Started); ok {
			ctx.Spawn(parentProps)
		}
	}, actor.WithSupervisor(rec)))
	pid := <-childPID
	<-started

	for range 3 {
		sys.Root.Send(pid, &boom{})
		<-restarted
		<-started
	}
	select {
	case r := <-rec.escalated:
		t.Fatalf("escalated before the cap: %v", r)
	default:
	}
	sys.Root.Send(pid, &boom{}) // the fourth failure passes the cap of three
	reason := <-rec.escalated
	gave, ok := reason.(*actors.GaveUp)
	if !ok || !strings.Contains(gave.Error(), "child blew up") {
		t.Fatalf("escalated %T %v, want *actors.GaveUp naming the panic", reason, reason)
	}
	if n := len(restarted); n != 0 {
		t.Fatalf("restarted %d more times after the cap", n)
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

type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
