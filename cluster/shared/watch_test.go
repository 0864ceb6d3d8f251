package shared_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/shared"
)

func stoppedAt(rev int64) func(shared.Event) bool {
	return func(ev shared.Event) bool { return ev.Reachable && ev.State.Stopped && ev.State.Rev == rev }
}

func resumedAt(rev int64) func(shared.Event) bool {
	return func(ev shared.Event) bool { return ev.Reachable && !ev.State.Stopped && ev.State.Rev == rev }
}

// A Stop written through one host reaches the watches of two others, and
// so does the resume after it.
func TestStopReachesEveryWatcher(t *testing.T) {
	srv := etcdtest.Start(t)
	writer := open(t, srv)
	b, c := watch(t, open(t, srv)), watch(t, open(t, srv))
	for name, r := range map[string]*recorder{"b": b, "c": c} {
		if first := r.waitFor(t, "first", func(shared.Event) bool { return true }); !first.AllowsWork() {
			t.Fatalf("%s's first event on an empty etcd: %+v; want work allowed", name, first)
		}
	}
	stop := setStop(t, writer, true)
	for name, r := range map[string]*recorder{"b": b, "c": c} {
		if ev := r.waitFor(t, "with the Stop", stoppedAt(stop)); ev.AllowsWork() {
			t.Fatalf("%s allows work under a Stop: %+v", name, ev)
		}
	}
	resume := setStop(t, writer, false)
	for _, r := range []*recorder{b, c} {
		r.waitFor(t, "with the resume", resumedAt(resume))
	}
}

// A host that starts watching after the Stop learns it from the first
// event, which Watch delivers before it returns.
func TestLateWatcherLearnsStopFirst(t *testing.T) {
	srv := etcdtest.Start(t)
	stop := setStop(t, open(t, srv), true)
	r := watch(t, open(t, srv))
	select {
	case first := <-r.ch:
		if !stoppedAt(stop)(first) || first.AllowsWork() {
			t.Fatalf("a late watcher's first event is %+v; want the Stop at revision %d", first, stop)
		}
	default:
		t.Fatal("Watch returned before delivering the flag")
	}
}

// While etcd is away a watching host hears that it cannot be reached; when
// etcd returns it hears so again with the flag read afresh, and then
// follows changes as before.
func TestUnreachableEtcdFailsClosedAndRecovers(t *testing.T) {
	srv := etcdtest.Start(t)
	writer := open(t, srv)
	r := watch(t, open(t, srv))
	r.waitFor(t, "first", func(ev shared.Event) bool { return ev.AllowsWork() })
	stop := setStop(t, writer, true)
	r.waitFor(t, "with the Stop", stoppedAt(stop))

	srv.Stop()
	lost := r.waitFor(t, "saying etcd is unreachable", func(ev shared.Event) bool { return !ev.Reachable })
	var unreachable *shared.UnreachableError
	if lost.AllowsWork() || !errors.As(lost.Err, &unreachable) {
		t.Fatalf("the unreachable event %+v allows work or lacks an *UnreachableError", lost)
	}

	srv.Restart()
	back := r.waitFor(t, "saying etcd is back", func(ev shared.Event) bool { return ev.Reachable })
	if !stoppedAt(stop)(back) || back.Err != nil {
		t.Fatalf("the first event after etcd returned is %+v; want the Stop at revision %d read again", back, stop)
	}
	resume := setStop(t, writer, false)
	r.waitFor(t, "with the resume written after etcd returned", resumedAt(resume))
}

// Close ends every Watch and its goroutines, and no callback runs after it.
func TestCloseLeavesNoGoroutines(t *testing.T) {
	srv := etcdtest.Start(t)
	before := goleak.IgnoreCurrent()
	s, err := shared.Open(ctxFor(t), shared.Config{Endpoints: []string{srv.Endpoint()}, Prefix: prefix, Secret: testSecret})
	if err != nil {
		t.Fatal(err)
	}
	closed := make(chan struct{})
	for range 3 {
		if err := s.Watch(context.Background(), func(shared.Event) {
			select {
			case <-closed:
				t.Error("a callback ran after Close returned")
			default:
			}
		}); err != nil {
			t.Fatal(err)
		}
	}
	cancelled, cancel := context.WithCancel(context.Background())
	if err := s.Watch(cancelled, func(shared.Event) {}); err != nil {
		t.Fatal(err)
	}
	cancel()
	setStop(t, s, true)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	close(closed)
	if err := s.Watch(context.Background(), func(shared.Event) {}); !errors.Is(err, shared.ErrClosed) {
		t.Fatalf("Watch after Close: %v, want ErrClosed", err)
	}
	if _, err := s.SetStop(context.Background(), false, time.Now()); !errors.Is(err, shared.ErrClosed) {
		t.Fatalf("SetStop after Close: %v, want ErrClosed", err)
	}
	goleak.VerifyNone(t, before)
}
