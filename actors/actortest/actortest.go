// Package actortest helps test actors directly, without the HTTP surface:
// an actor system, a ledger on a store in a temp dir, a fake clock, probes
// that stand in for an actor's neighbours, and requests that fail the test
// instead of hanging. Everything it starts stops through t.Cleanup.
package actortest

import (
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors"
	"github.com/buddi-dev/buddi/actors/ledger"
)

// Wait bounds every request a test makes.
const Wait = 10 * time.Second

// System returns an actor system that shuts down when the test ends.
func System(t testing.TB) *actor.ActorSystem {
	t.Helper()
	sys := actors.NewSystem(slog.New(slog.DiscardHandler))
	t.Cleanup(sys.Shutdown)
	return sys
}

// Ledger opens a store in a temp dir and spawns its ledger; both stop when
// the test ends (the ledger first).
func Ledger(t testing.TB, sys *actor.ActorSystem) (*ledger.Store, *actor.PID) {
	t.Helper()
	st, err := ledger.Open(filepath.Join(t.TempDir(), "state"))
	if err != nil {
		t.Fatal(err)
	}
	pid := sys.Root.Spawn(ledger.Props(st, slog.New(slog.DiscardHandler), ledger.Retention{}))
	t.Cleanup(func() {
		_ = sys.Root.PoisonFuture(pid).Wait()
		_ = st.Close()
	})
	return st, pid
}

// Write makes ops durable through the ledger, failing the test otherwise.
func Write(t testing.TB, sys *actor.ActorSystem, pid *actor.PID, ops ...ledger.Op) {
	t.Helper()
	if err := ledger.Check(ledger.Request(sys.Root, pid, &ledger.Write{Ops: ops}, Wait).Result()); err != nil {
		t.Fatalf("ledger write: %v", err)
	}
}

// Stall holds every commit of store until the returned release (called at
// the latest when the test ends); stalled receives once a commit waits.
func Stall(t testing.TB, store *ledger.Store) (stalled <-chan struct{}, release func()) {
	t.Helper()
	hold, waiting := make(chan struct{}), make(chan struct{}, 1)
	store.BeforeCommit(func() {
		select {
		case waiting <- struct{}{}:
		default:
		}
		<-hold
	})
	var once sync.Once
	release = func() {
		once.Do(func() {
			store.BeforeCommit(nil)
			close(hold)
		})
	}
	t.Cleanup(release)
	return waiting, release
}

// Ask sends msg to pid and returns the answer as a T, failing the test when
// none comes or it is not a T.
func Ask[T any](t testing.TB, sys *actor.ActorSystem, pid *actor.PID, msg any) T {
	t.Helper()
	res, err := sys.Root.RequestFuture(pid, msg, Wait).Result()
	if err != nil {
		t.Fatalf("asking %s with %T: %v", pid.Id, msg, err)
	}
	v, ok := res.(T)
	if !ok {
		var want T
		t.Fatalf("%s answered %T (%+v), want %T", pid.Id, res, res, want)
	}
	return v
}

// Clock is a fake clock for an actor's Now.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock that reads start until advanced.
func NewClock(start time.Time) *Clock { return &Clock{now: start} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Probe stands in for an actor: it hands every message it receives to the
// test on Got and answers the sender with what Answer returns (nothing when
// nil).
type Probe struct {
	PID    *actor.PID
	Got    chan any
	Answer func(msg any) any
}

// NewProbe spawns a probe that answers with answer (nil: never answers).
func NewProbe(t testing.TB, sys *actor.ActorSystem, answer func(msg any) any) *Probe {
	t.Helper()
	p := &Probe{Got: make(chan any, 1024), Answer: answer}
	p.PID = sys.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch ctx.Message().(type) {
		case *actor.Started, *actor.Stopping, *actor.Stopped, *actor.Restarting:
			return
		}
		p.Got <- ctx.Message()
		if p.Answer == nil || ctx.Sender() == nil {
			return
		}
		if r := p.Answer(ctx.Message()); r != nil {
			ctx.Respond(r)
		}
	}))
	t.Cleanup(func() { _ = sys.Root.PoisonFuture(p.PID).Wait() })
	return p
}
