package controller_test

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/actortest"
	"github.com/buddi-dev/buddi/actors/controller"
	"github.com/buddi-dev/buddi/actors/routes"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// etcdAway is the cluster's Stop flag in an etcd that refuses writes
// until it is back; it keeps what it committed.
type etcdAway struct {
	mu      sync.Mutex
	back    bool
	written []bool
}

func (e *etcdAway) SetStop(_ context.Context, stopped bool, _ time.Time) (int64, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.back {
		return 0, errors.New("etcd does not answer")
	}
	e.written = append(e.written, stopped)
	return int64(len(e.written)), nil
}

func (e *etcdAway) returns() { e.mu.Lock(); e.back = true; e.mu.Unlock() }

func (e *etcdAway) last() (bool, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.written) == 0 {
		return false, false
	}
	return e.written[len(e.written)-1], true
}

// A Stop made while etcd is away, by a controller that is then restarted
// (a new instance over the same Carry, as its supervisor makes), is
// written to etcd once it is back, and the returning watch, which still
// says "not stopped", does not lift it.
func TestAStopEtcdHasNotTakenSurvivesAControllerRestart(t *testing.T) {
	sys := actortest.System(t)
	store, led := actortest.Ledger(t, sys)
	etcd, carry, table := &etcdAway{}, &controller.Carry{}, routes.New()
	spawn := func() *actor.PID {
		return sys.Root.Spawn(controller.Props(controller.Config{Store: store, Ledger: led, Mode: sim.NewMode(sim.Config{}, 1),
			Routes: table, Bus: events.New(), Log: slog.New(slog.DiscardHandler), Shared: etcd, Carry: carry}))
	}
	first := spawn()
	sys.Root.Send(first, &messages.ClusterStop{Reachable: true})
	sys.Root.Send(first, &messages.StopAll{})
	sys.Root.Send(first, &messages.ClusterStop{Reachable: false, Why: "etcd does not answer"})
	if !actortest.Ask[*messages.Health](t, sys, first, &messages.GetHealth{}).Stopped {
		t.Fatal("the Stop is not in force")
	}
	_ = sys.Root.PoisonFuture(first).Wait()

	second := spawn()
	t.Cleanup(func() { _ = sys.Root.PoisonFuture(second).Wait() })
	sys.Root.Send(second, &messages.ClusterStop{Reachable: true, Stopped: false}) // etcd back, the flag never written
	etcd.returns()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if stopped, ok := etcd.last(); ok {
			if !stopped {
				t.Fatal("etcd was told to resume")
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the Stop never reached etcd after the restart")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !actortest.Ask[*messages.Health](t, sys, second, &messages.GetHealth{}).Stopped {
		t.Fatal("the restarted controller lifted the owner's Stop on a stale flag")
	}
}
