package shared_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/shared"
)

func TestOpenRefusesIncompleteConfig(t *testing.T) {
	cases := map[string]shared.Config{
		"no endpoint":       {Prefix: "/buddi", Secret: testSecret},
		"empty prefix":      {Endpoints: []string{"http://127.0.0.1:1"}},
		"prefix only slash": {Endpoints: []string{"http://127.0.0.1:1"}, Prefix: "/"},
		"no secret":         {Endpoints: []string{"http://127.0.0.1:1"}, Prefix: "/buddi"},
		"negative timeout":  {Endpoints: []string{"http://127.0.0.1:1"}, Prefix: "/buddi", Secret: testSecret, DialTimeout: -time.Second},
	}
	for name, cfg := range cases {
		t.Run(name, func(t *testing.T) {
			if s, err := shared.Open(context.Background(), cfg); err == nil {
				s.Close()
				t.Fatal("Open accepted it")
			}
		})
	}
}

func TestOpenFailsWhenEtcdIsAway(t *testing.T) {
	srv := etcdtest.Start(t)
	srv.Stop()
	s, err := shared.Open(context.Background(), shared.Config{Endpoints: []string{srv.Endpoint()}, Prefix: prefix, Secret: testSecret, DialTimeout: time.Second})
	var unreachable *shared.UnreachableError
	if !errors.As(err, &unreachable) {
		if s != nil {
			s.Close()
		}
		t.Fatalf("Open with etcd stopped: %v, want an *UnreachableError", err)
	}
}

// The first member to join a new cluster signs a "not stopped" flag.
func TestANewClusterIsNotStopped(t *testing.T) {
	s := open(t, etcdtest.Start(t))
	st, err := s.Stop(ctxFor(t))
	if err != nil || st.Stopped || st.Rev == 0 {
		t.Fatalf("Stop on a new cluster = %+v, %v; want not stopped, written by the first member", st, err)
	}
}

func TestStopSurvivesEtcdRestart(t *testing.T) {
	srv := etcdtest.Start(t)
	at := time.Date(2026, 12, 1, 8, 0, 0, 123, time.UTC)
	rev, err := open(t, srv).SetStop(ctxFor(t), true, at)
	if err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	srv.Restart()
	st, err := open(t, srv).Stop(ctxFor(t))
	if err != nil {
		t.Fatal(err)
	}
	if !st.Stopped || st.Rev != rev || !st.At.Equal(at) {
		t.Fatalf("after a restart etcd holds %+v; want stopped at %v, revision %d", st, at, rev)
	}
}

// Three hosts write the flag at once, many times: every write commits (the
// revision check retries a lost race instead of failing or overwriting
// blindly), at its own revision, and the flag ends as the write committed
// last left it.
func TestConcurrentWritesAllCommitAndLastWins(t *testing.T) {
	srv := etcdtest.Start(t)
	stores := []*shared.Store{open(t, srv), open(t, srv), open(t, srv)}
	watcher := watch(t, open(t, srv))
	type write struct {
		stopped bool
		at      time.Time
	}
	const perHost = 15
	var (
		mu      sync.Mutex
		written = map[int64]write{}
		wg      sync.WaitGroup
	)
	base := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for h, s := range stores {
		wg.Go(func() {
			for i := range perHost {
				w := write{stopped: (h+i)%2 == 0, at: base.Add(time.Duration(h*perHost+i) * time.Millisecond)}
				rev, err := s.SetStop(ctxFor(t), w.stopped, w.at)
				if err != nil {
					t.Errorf("host %d, write %d: %v", h, i, err)
					return
				}
				mu.Lock()
				if _, dup := written[rev]; dup {
					t.Errorf("two writes reported revision %d", rev)
				}
				written[rev] = w
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(written) != len(stores)*perHost {
		t.Fatalf("%d writes committed, want %d", len(written), len(stores)*perHost)
	}
	var last int64
	for rev := range written {
		last = max(last, rev)
	}
	want := written[last]
	st, err := stores[0].Stop(ctxFor(t))
	if err != nil {
		t.Fatal(err)
	}
	if st.Rev != last || st.Stopped != want.stopped || !st.At.Equal(want.at) {
		t.Fatalf("the flag reads %+v; the last commit (revision %d) wrote %+v", st, last, want)
	}
	ev := watcher.waitFor(t, "with the last commit", func(ev shared.Event) bool { return ev.State.Rev == last })
	if ev.State.Stopped != want.stopped {
		t.Fatalf("the watch delivered %+v for the last commit, which wrote %+v", ev.State, want)
	}
	for i := 1; i < len(watcher.events); i++ {
		if watcher.events[i].State.Rev <= watcher.events[i-1].State.Rev {
			t.Fatalf("the watch went back from revision %d to %d", watcher.events[i-1].State.Rev, watcher.events[i].State.Rev)
		}
	}
}

// A stored value buddi cannot read counts as stopped, for a read and for a
// watch, and an owner's resume repairs it.
func TestMalformedValueFailsClosed(t *testing.T) {
	cases := map[string]string{
		"not json":   `stopped? no`,
		"unsigned":   `{"v":2,"stopped":false,"at":"2026-12-01T00:00:00Z","seq":99}`,
		"no time":    `{"v":1,"stopped":false}`,
		"wrong type": `{"v":1,"stopped":"no","at":"2026-12-01T00:00:00Z"}`,
		"empty":      ``,
	}
	srv := etcdtest.Start(t)
	raw, err := clientv3.New(clientv3.Config{Endpoints: []string{srv.Endpoint()}, DialTimeout: 10 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	for name, value := range cases {
		t.Run(name, func(t *testing.T) {
			s := open(t, srv)
			if _, err := raw.Put(ctxFor(t), prefix+"/stop", value); err != nil {
				t.Fatal(err)
			}
			st, err := s.Stop(ctxFor(t))
			var malformed *shared.MalformedError
			if !errors.As(err, &malformed) || !st.Stopped {
				t.Fatalf("Stop on %q = %+v, %v; want stopped with a *MalformedError", value, st, err)
			}
			first := watch(t, s).waitFor(t, "first", func(shared.Event) bool { return true })
			if first.AllowsWork() || !first.State.Stopped || !errors.As(first.Err, &malformed) {
				t.Fatalf("a watch over %q delivered %+v; want stopped, no work, a *MalformedError", value, first)
			}
			rev := setStop(t, s, false)
			if st, err := s.Stop(ctxFor(t)); err != nil || st.Stopped || st.Rev != rev {
				t.Fatalf("after a resume the flag reads %+v, %v", st, err)
			}
		})
	}
}
