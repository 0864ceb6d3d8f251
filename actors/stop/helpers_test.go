package stop_test

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/actortest"
	"github.com/buddi-dev/buddi/actors/controller"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/actors/routes"
	"github.com/buddi-dev/buddi/actors/stop"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// member is one buddi's Stop and controller over its own ledger: a single
// host, or one member of a cluster sharing an etcd.
type member struct {
	sys    *actor.ActorSystem
	store  *ledger.Store
	led    *actor.PID
	board  *stop.Board
	stop   *actor.PID
	routes *routes.Table
	bus    *events.Bus
	carry  *controller.Carry
	ctl    *actor.PID
	etcd   *etcd // nil on a single host
}

func newMember(t *testing.T, sys *actor.ActorSystem, e *etcd) *member {
	t.Helper()
	m := &member{sys: sys, routes: routes.New(), bus: events.New(), carry: &controller.Carry{}, etcd: e}
	m.store, m.led = actortest.Ledger(t, sys)
	var err error
	if m.board, err = stop.Open(m.store, e != nil); err != nil {
		t.Fatal(err)
	}
	cfg := stop.Config{Board: m.board, Ledger: m.led, Bus: m.bus, Log: slog.New(slog.DiscardHandler)}
	if e != nil {
		cfg.Shared = e
	}
	m.stop = sys.Root.Spawn(stop.Props(cfg))
	t.Cleanup(func() { _ = sys.Root.PoisonFuture(m.stop).Wait() })
	m.ctl = m.controller(t)
	if e != nil {
		e.watch(func(c *messages.ClusterStop) { sys.Root.Send(m.stop, c) })
	}
	return m
}

// controller spawns a controller over the member's Carry and table, as its
// supervisor would after a restart: the new instance starts from the
// ledger, the Board and its Carry.
func (m *member) controller(t *testing.T) *actor.PID {
	t.Helper()
	cfg := controller.Config{Store: m.store, Ledger: m.led, Mode: sim.NewMode(sim.Config{}, 1), Routes: m.routes,
		Bus: m.bus, Log: slog.New(slog.DiscardHandler), Carry: m.carry, Stops: m.board, Stop: m.stop}
	if m.etcd != nil {
		cfg.Membership = "etcd"
	}
	pid := m.sys.Root.Spawn(controller.Props(cfg))
	t.Cleanup(func() { _ = m.sys.Root.PoisonFuture(pid).Wait() })
	return pid
}

// owner answers one owner control through the controller.
func (m *member) owner(t *testing.T, msg any) messages.Answer {
	t.Helper()
	r := actortest.Ask[*messages.OwnerReply](t, m.sys, m.ctl, msg)
	if r.Error != nil {
		t.Fatalf("%T: %v", msg, r.Error)
	}
	return r.Result
}

// act is one agent call through the controller.
func (m *member) act(t *testing.T, tokenHash string) *messages.ToolResult {
	t.Helper()
	return actortest.Ask[*messages.ToolResult](t, m.sys, m.ctl, &messages.ToolCall{TokenHash: tokenHash,
		Tool: messages.ToolAct, Conversation: "c1", Act: &messages.ActInput{Action: "observe"}})
}

// until waits for ok, failing the test after a while.
func until(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited in vain for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// etcd is the cluster's Stop flag as etcd keeps it (the seam stop.Shared):
// every write is a revision, and every watcher is told each commit in
// order, each after a delay of its own, so a member may hear another's
// commit before its own write returns, or after. While away, writes fail.
type etcd struct {
	mu       sync.Mutex
	away     bool
	rev      int64
	stopped  bool
	at       time.Time
	watchers []chan *messages.ClusterStop
}

// newEtcd is an etcd whose watches end with the test.
func newEtcd(t *testing.T) *etcd {
	e := &etcd{}
	t.Cleanup(func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		for _, w := range e.watchers {
			close(w)
		}
		e.watchers = nil
	})
	return e
}

func (e *etcd) SetStop(_ context.Context, stopped bool, at time.Time) (int64, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.away {
		return 0, errors.New("etcd does not answer")
	}
	e.rev++
	e.stopped, e.at = stopped, at
	for _, w := range e.watchers {
		w <- &messages.ClusterStop{Reachable: true, Stopped: stopped, At: at, Rev: e.rev}
	}
	return e.rev, nil
}

func (e *etcd) setAway(away bool) { e.mu.Lock(); e.away = away; e.mu.Unlock() }

// flag is what etcd holds, and at which revision.
func (e *etcd) flag() (stopped bool, rev int64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stopped, e.rev
}

// watch delivers the flag as it is now, then every commit, to deliver.
func (e *etcd) watch(deliver func(*messages.ClusterStop)) {
	ch := make(chan *messages.ClusterStop, 4096)
	e.mu.Lock()
	e.watchers = append(e.watchers, ch)
	ch <- &messages.ClusterStop{Reachable: true, Stopped: e.stopped, At: e.at, Rev: e.rev}
	e.mu.Unlock()
	go func() {
		for c := range ch {
			time.Sleep(time.Duration(rand.IntN(3)) * time.Millisecond)
			deliver(c)
		}
	}()
}
