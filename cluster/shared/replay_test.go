package shared_test

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/shared"
)

// capture reads what etcd holds at key, as a process with write access
// to etcd would keep it to write back later.
func capture(t *testing.T, srv *etcdtest.Server, key string) string {
	t.Helper()
	got, err := rawClient(t, srv).Get(ctxFor(t), key)
	if err != nil || len(got.Kvs) != 1 {
		t.Fatalf("capture %s: %v %v", key, got, err)
	}
	return string(got.Kvs[0].Value)
}

func writeBack(t *testing.T, srv *etcdtest.Server, key, v string) {
	t.Helper()
	if _, err := rawClient(t, srv).Put(ctxFor(t), key, v); err != nil {
		t.Fatal(err)
	}
}

// Older records, validly signed, written back over newer ones are refused
// and logged once: a removed agent does not come back, a smaller count of
// steps is not taken for a fresh budget, and a home the conversation left
// does not let its old member write.
func TestAnOlderSignedRecordWrittenBackIsRefused(t *testing.T) {
	srv := etcdtest.Start(t)
	log := &logBuf{}
	s, err := openWith(t, srv, testSecret, log)
	if err != nil {
		t.Fatal(err)
	}

	// an agent removed
	if _, err := s.Create(ctxFor(t), shared.Agents, "ada", []byte(`{"name":"ada"}`)); err != nil {
		t.Fatal(err)
	}
	agent := prefix + "/agents/ada"
	old := capture(t, srv, agent)
	if _, err := s.Delete(ctxFor(t), shared.Agents, "ada"); err != nil {
		t.Fatal(err)
	}
	writeBack(t, srv, agent, old)
	for range 2 {
		if _, ok, err := s.Get(ctxFor(t), shared.Agents, "ada"); ok || err != nil {
			t.Fatalf("the removed agent written back reads as present (%v)", err)
		}
		if rs, _, err := s.List(ctxFor(t), shared.Agents); err != nil || len(rs) != 0 {
			t.Fatalf("the agents listed after a removed one was written back: %+v (%v)", rs, err)
		}
	}
	// the owner may add the name again over what is there
	if _, err := s.Create(ctxFor(t), shared.Agents, "ada", []byte(`{"name":"ada","again":true}`)); err != nil {
		t.Fatalf("adding the agent again: %v", err)
	}

	// a smaller count of steps
	if _, _, err := s.Swap(ctxFor(t), shared.Homes, "c1", []byte("m1")); err != nil {
		t.Fatal(err)
	}
	task := time.Now().UTC()
	if err := s.PutSteps(ctxFor(t), "c1", "m1", shared.TaskSteps{Task: task, Used: 3}); err != nil {
		t.Fatal(err)
	}
	steps := prefix + "/steps/c1"
	three := capture(t, srv, steps)
	if err := s.PutSteps(ctxFor(t), "c1", "m1", shared.TaskSteps{Task: task, Used: 40}); err != nil {
		t.Fatal(err)
	}
	writeBack(t, srv, steps, three)
	for range 2 {
		if used, err := s.StepsOf(ctxFor(t), "c1", task); !errors.Is(err, shared.ErrReplayed) {
			t.Fatalf("the steps written back read as %d (%v), want ErrReplayed (an unknown budget)", used, err)
		}
	}
	// the member holding the conversation writes its count over them
	if err := s.PutSteps(ctxFor(t), "c1", "m1", shared.TaskSteps{Task: task, Used: 41}); err != nil {
		t.Fatal(err)
	}
	if used, err := s.StepsOf(ctxFor(t), "c1", task); err != nil || used != 41 {
		t.Fatalf("steps after the holder wrote again: %d (%v), want 41", used, err)
	}

	// a home the conversation left
	home := prefix + "/homes/c1"
	atM1 := capture(t, srv, home)
	if _, _, err := s.Swap(ctxFor(t), shared.Homes, "c1", []byte("m2")); err != nil {
		t.Fatal(err)
	}
	writeBack(t, srv, home, atM1)
	if _, ok, _ := s.Get(ctxFor(t), shared.Homes, "c1"); ok {
		t.Fatal("the home written back reads as present")
	}
	if _, err := s.PutAsHome(ctxFor(t), shared.Tasks, "c1", "m1", []byte(`"m1's"`)); !errors.Is(err, shared.ErrNotHome) {
		t.Fatalf("m1 wrote through a home written back: %v, want ErrNotHome", err)
	}

	for _, key := range []string{agent, steps, home} {
		if n := log.count("key=" + key + " "); n != 1 {
			t.Errorf("the record written back at %s was logged %d times, want once: %s", key, n, log.buf.String())
		}
	}
}

// A member keeps the generation of the Stop flag in its file: restarted,
// it refuses the "not stopped" flag written back while it was away, and
// signs its Stop again, so a member that joins afresh, knowing nothing,
// reads the owner's Stop.
func TestAStopWrittenBackWhileAMemberWasAwayIsRefusedAfterItsRestart(t *testing.T) {
	srv := etcdtest.Start(t)
	file := filepath.Join(t.TempDir(), "generations.json")
	openKeeping := func(log *logBuf) *shared.Store {
		cfg := shared.Config{Endpoints: []string{srv.Endpoint()}, Prefix: prefix, Secret: testSecret, Generations: file,
			Log: slog.New(slog.NewTextHandler(log, nil))}
		s, err := shared.Open(ctxFor(t), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Join(ctxFor(t)); err != nil {
			t.Fatal(err)
		}
		return s
	}
	first := openKeeping(&logBuf{})
	setStop(t, first, false)
	notStopped := capture(t, srv, prefix+"/stop")
	setStop(t, first, true)
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}

	writeBack(t, srv, prefix+"/stop", notStopped)
	log := &logBuf{}
	again := openKeeping(log)
	t.Cleanup(func() { _ = again.Close() })
	var malformed *shared.MalformedError
	if st, err := again.Stop(ctxFor(t)); !st.Stopped || !errors.Is(err, shared.ErrReplayed) || !errors.As(err, &malformed) {
		t.Fatalf("the restarted member reads the flag written back as %+v (%v), want stopped, refused as replayed", st, err)
	}
	w := watch(t, again)
	w.waitFor(t, "the Stop signed again", func(ev shared.Event) bool { return ev.Err == nil && ev.State.Stopped })
	if n := log.count("key=" + prefix + "/stop "); n != 1 {
		t.Errorf("the flag written back was logged %d times, want once: %s", n, log.buf.String())
	}

	fresh := open(t, srv)
	if st, err := fresh.Stop(ctxFor(t)); err != nil || !st.Stopped {
		t.Fatalf("a member with no memory reads the flag as %+v (%v), want the owner's Stop", st, err)
	}
}

// Homes and members written by something without the secret are refused:
// a forged home does not let a member write a conversation's records as
// its holder, and a forged member is not listed.
func TestForgedHomesAndMembersAreRefused(t *testing.T) {
	srv := etcdtest.Start(t)
	log := &logBuf{}
	s, err := openWith(t, srv, testSecret, log)
	if err != nil {
		t.Fatal(err)
	}
	writeBack(t, srv, prefix+"/homes/c2", "evil")
	if _, ok, _ := s.Get(ctxFor(t), shared.Homes, "c2"); ok {
		t.Fatal("a forged home reads as present")
	}
	if _, err := s.PutAsHome(ctxFor(t), shared.Steps, "c2", "evil", []byte(`{}`)); !errors.Is(err, shared.ErrNotHome) {
		t.Fatalf("a write as the forged home's holder: %v, want ErrNotHome", err)
	}
	reg, err := s.Register(ctxFor(t), shared.Member{ID: "m1", Addr: "127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reg.Leave)
	writeBack(t, srv, prefix+"/members/evil", `{"v":1,"addr":"203.0.113.9:7000","since":"2026-12-01T00:00:00Z"}`)
	ms, err := s.Members(ctxFor(t))
	if err != nil || len(ms) != 1 || ms[0].ID != "m1" {
		t.Fatalf("the members listed are %+v (%v), want m1 alone", ms, err)
	}
	for _, key := range []string{prefix + "/homes/c2", prefix + "/members/evil"} {
		if n := log.count("key=" + key + " "); n != 1 {
			t.Errorf("the forged %s was logged %d times, want once: %s", key, n, log.buf.String())
		}
	}
}

// A member that follows the conversations' records without reading them
// refuses an older count of steps written back, and a count deleted, when
// it later adopts the conversation: it learned the newer generation as the
// holder wrote it.
func TestAFollowingMemberRefusesOlderStepsItNeverRead(t *testing.T) {
	srv := etcdtest.Start(t)
	holder := open(t, srv)
	log := &logBuf{}
	adopter, err := openWith(t, srv, testSecret, log)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := adopter.FollowGenerations(ctx, shared.Homes, shared.Tasks, shared.Steps); err != nil {
		t.Fatal(err)
	}
	if _, _, err := holder.Swap(ctxFor(t), shared.Homes, "c1", []byte("m1")); err != nil {
		t.Fatal(err)
	}
	task := time.Now().UTC()
	steps := prefix + "/steps/c1"
	if err := holder.PutSteps(ctxFor(t), "c1", "m1", shared.TaskSteps{Task: task, Used: 3}); err != nil {
		t.Fatal(err)
	}
	three := capture(t, srv, steps)
	if err := holder.PutSteps(ctxFor(t), "c1", "m1", shared.TaskSteps{Task: task, Used: 40}); err != nil {
		t.Fatal(err)
	}
	writeBack(t, srv, steps, three)
	waitLogged(t, log, "key="+steps+" ")
	if used, err := adopter.StepsOf(ctxFor(t), "c1", task); !errors.Is(err, shared.ErrReplayed) {
		t.Fatalf("the adopter reads the steps written back as %d (%v), want ErrReplayed", used, err)
	}
	if _, err := rawClient(t, srv).Delete(ctxFor(t), steps); err != nil {
		t.Fatal(err)
	}
	if used, err := adopter.StepsOf(ctxFor(t), "c1", task); !errors.Is(err, shared.ErrReplayed) {
		t.Fatalf("the adopter reads the deleted steps as %d (%v), want ErrReplayed", used, err)
	}
	if n := log.count("key=" + steps + " "); n != 1 {
		t.Errorf("the steps written back were logged %d times, want once: %s", n, log.buf.String())
	}
}

// waitLogged waits until log holds s.
func waitLogged(t *testing.T, log *logBuf, s string) {
	t.Helper()
	for deadline := time.Now().Add(patience); log.count(s) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%q was never logged: %s", s, log.buf.String())
		}
	}
}

// A member that comes back after its key went with its lease, knowing
// nothing of it, is listed again by a member that saw its earlier
// registration: its record is newer than any written before it.
func TestAMemberBackAfterItsKeyWentIsListedByOneThatSawItBefore(t *testing.T) {
	srv := etcdtest.Start(t)
	watcher := open(t, srv)
	first := open(t, srv)
	reg, err := first.Register(ctxFor(t), shared.Member{ID: "m1", Addr: "127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	reg.Update(shared.Capacity{Sessions: 4, SessionsInUse: 1}) // a second record at the key
	for deadline := time.Now().Add(patience); ; time.Sleep(20 * time.Millisecond) {
		ms, err := watcher.Members(ctxFor(t))
		if err == nil && len(ms) == 1 && ms[0].Capacity.SessionsInUse == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("members before: %+v (%v)", ms, err)
		}
	}
	reg.Leave() // revokes the lease: the key is gone
	if ms, err := watcher.Members(ctxFor(t)); err != nil || len(ms) != 0 {
		t.Fatalf("members after m1 left: %+v (%v)", ms, err)
	}
	again := open(t, srv)
	reg, err = again.Register(ctxFor(t), shared.Member{ID: "m1", Addr: "127.0.0.1:2"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reg.Leave)
	if ms, err := watcher.Members(ctxFor(t)); err != nil || len(ms) != 1 || ms[0].Addr != "127.0.0.1:2" {
		t.Fatalf("members after m1 came back: %+v (%v), want m1 at its new address", ms, err)
	}
}
