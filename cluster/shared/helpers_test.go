package shared_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/shared"
)

// patience bounds every wait for an event: generous, since nothing here
// asserts on timing.
const patience = 45 * time.Second

const prefix = "/buddi-test"

func open(t testing.TB, srv *etcdtest.Server) *shared.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := shared.Open(ctx, shared.Config{Endpoints: []string{srv.Endpoint()}, Prefix: prefix, Secret: testSecret})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Join(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return s
}

// testSecret is the cluster's secret the tests' members hold.
var testSecret = secretOf(1)

// secretOf is a secret of 32 bytes of b.
func secretOf(b byte) shared.Secret {
	s, err := shared.NewSecret(bytes.Repeat([]byte{b}, shared.SecretSize))
	if err != nil {
		panic(err)
	}
	return s
}

func ctxFor(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	t.Cleanup(cancel)
	return ctx
}

// recorder keeps a Watch's events in order.
type recorder struct {
	ch     chan shared.Event
	events []shared.Event // as delivered, for the synchronous first event
}

func watch(t testing.TB, s *shared.Store) *recorder {
	t.Helper()
	r := &recorder{ch: make(chan shared.Event, 4096)}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := s.Watch(ctx, func(ev shared.Event) {
		r.ch <- ev
	}); err != nil {
		t.Fatal(err)
	}
	return r
}

// waitFor returns the first event that satisfies ok, failing t after
// patience.
func (r *recorder) waitFor(t testing.TB, what string, ok func(shared.Event) bool) shared.Event {
	t.Helper()
	deadline := time.After(patience)
	for {
		select {
		case ev := <-r.ch:
			r.events = append(r.events, ev)
			if ok(ev) {
				return ev
			}
		case <-deadline:
			t.Fatalf("no event %s within %v; saw %+v", what, patience, r.events)
		}
	}
}

func setStop(t testing.TB, s *shared.Store, stopped bool) int64 {
	t.Helper()
	rev, err := s.SetStop(ctxFor(t), stopped, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return rev
}
