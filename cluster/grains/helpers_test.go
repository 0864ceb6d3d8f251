package grains_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/grains"
)

// patience bounds every wait: generous, since nothing here asserts on
// timing.
const patience = 60 * time.Second

// Incr adds one to a counter grain; Where asks only where it lives;
// Refuse asks for a Failure; Odd asks for an unregistered answer.
type (
	Incr   struct{}
	Where  struct{}
	Refuse struct{}
	Odd    struct{}
	// Quit asks a counter grain to answer and stop itself.
	Quit struct{}
	// Count is a counter grain's answer: its count, the address of the
	// member it runs on and its identity.
	Count struct {
		N        int    `json:"n"`
		Addr     string `json:"addr"`
		Identity string `json:"identity"`
	}
	unregistered struct{}
)

// counter is a session grain for tests: it counts Incr. A gauge, when
// set, counts the member's live counters.
type counter struct {
	identity string
	n        int
	gauge    *gauge
}

func (c *counter) Receive(ctx actor.Context) {
	switch ctx.Message().(type) {
	case *actor.Stopped:
		if c.gauge != nil {
			c.gauge.add(-1)
		}
	case *Quit:
		ctx.Respond(&Count{N: c.n, Addr: ctx.Self().Address, Identity: c.identity})
		ctx.Stop(ctx.Self())
	case *Incr:
		c.n++
		ctx.Respond(&Count{N: c.n, Addr: ctx.Self().Address, Identity: c.identity})
	case *Where:
		ctx.Respond(&Count{N: c.n, Addr: ctx.Self().Address, Identity: c.identity})
	case *Refuse:
		ctx.Respond(&grains.Failure{Code: "paused", Message: "The session is paused; resume it first."})
	case *Odd:
		ctx.Respond(&unregistered{})
	}
}

func types(t testing.TB, withIncr bool) *grains.Registry {
	t.Helper()
	r, err := newTypes(withIncr)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func newTypes(withIncr bool) (*grains.Registry, error) {
	r := grains.NewRegistry()
	errs := []error{
		grains.Register[Where](r, "test.Where"),
		grains.Register[Refuse](r, "test.Refuse"),
		grains.Register[Odd](r, "test.Odd"),
		grains.Register[Count](r, "test.Count"),
		grains.Register[Quit](r, "test.Quit"),
	}
	if withIncr {
		errs = append(errs, grains.Register[Incr](r, "test.Incr"))
	}
	return r, errors.Join(errs...)
}

func config(endpoint string, r *grains.Registry) grains.Config {
	return grains.Config{
		Host:      "127.0.0.1",
		Endpoints: []string{endpoint},
		Prefix:    "/buddi-test/protoactor",
		Produce:   func(id string) actor.Actor { return &counter{identity: id} },
		Types:     r,
		Logger:    logger(),
	}
}

// start joins a member to the cluster on srv, left at the test's end.
func start(t testing.TB, srv *etcdtest.Server, r *grains.Registry) *grains.Member {
	t.Helper()
	return startConfig(t, config(srv.Endpoint(), r))
}

// startConfig joins a member made with cfg, left at the test's end.
func startConfig(t testing.TB, cfg grains.Config) *grains.Member {
	t.Helper()
	m, err := grains.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Shutdown(false) })
	return m
}

func logger() *slog.Logger {
	if os.Getenv("GRAINS_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return nil
}

// cluster starts n members and waits until each routes to all of them.
func cluster(t testing.TB, n int) (*etcdtest.Server, []*grains.Member) {
	t.Helper()
	if raceDetector {
		t.Skip("protoactor's cluster races on its own state; TestClusterWithoutTheRaceDetector runs this test without the race detector")
	}
	srv := etcdtest.Start(t)
	ms := make([]*grains.Member, n)
	for i := range ms {
		ms[i] = start(t, srv, types(t, true))
	}
	waitMembers(t, ms...)
	return srv, ms
}

// waitMembers waits until every one of ms routes to exactly ms.
func waitMembers(t testing.TB, ms ...*grains.Member) {
	t.Helper()
	var want []string
	for _, m := range ms {
		want = append(want, m.Address())
	}
	slices.Sort(want)
	deadline := time.Now().Add(patience)
	for _, m := range ms {
		for {
			got := m.Members()
			slices.Sort(got)
			if slices.Equal(got, want) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("member %s routes to %v, not %v, after %v", m.Address(), got, want, patience)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

func count(t testing.TB, m *grains.Member, id string, msg any) *Count {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	reply, err := m.Request(ctx, id, msg)
	if err != nil {
		t.Fatalf("%T to %s through %s: %v", msg, id, m.Address(), err)
	}
	c, ok := reply.(*Count)
	if !ok {
		t.Fatalf("%T to %s answered %T, not *Count", msg, id, reply)
	}
	return c
}
