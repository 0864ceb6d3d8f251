package shared_test

import (
	"context"
	"strings"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/shared"
)

// A member that has seen nothing learns, from a running member, the
// generations it verified: an agent's record written back after its
// removal, and a "not stopped" flag written back after the Stop, are
// refused by the new member as older (and logged), where without asking
// it would have taken them as the newest.
func TestAMemberThatHasSeenNothingLearnsTheGenerationsOfTheRunningOnes(t *testing.T) {
	srv := etcdtest.Start(t)
	running := open(t, srv)
	if _, err := running.Register(ctxFor(t), shared.Member{ID: "running", Addr: "127.0.0.1:7001"}); err != nil {
		t.Fatal(err)
	}
	if _, err := running.Create(ctxFor(t), shared.Agents, "bob", []byte(`{"name":"bob"}`)); err != nil {
		t.Fatal(err)
	}
	bob := capture(t, srv, prefix+"/agents/bob")
	setStop(t, running, false)
	notStopped := capture(t, srv, prefix+"/stop")
	if _, err := running.Delete(ctxFor(t), shared.Agents, "bob"); err != nil {
		t.Fatal(err)
	}
	setStop(t, running, true)
	writeBack(t, srv, prefix+"/agents/bob", bob)
	writeBack(t, srv, prefix+"/stop", notStopped)

	// Without asking, a member that has seen nothing takes them.
	blind := open(t, srv)
	if _, ok, err := blind.Get(ctxFor(t), shared.Agents, "bob"); !ok || err != nil {
		t.Fatalf("the test's premise: a member that never asked reads bob's record written back as live (found %v, %v)", ok, err)
	}

	log := &logBuf{}
	fresh, err := openWith(t, srv, testSecret, log)
	if err != nil {
		t.Fatal(err)
	}
	if fresh.Remembers() || fresh.Founded() {
		t.Fatalf("a Store without a file on a running cluster says it remembers (%v) or founded it (%v)", fresh.Remembers(), fresh.Founded())
	}
	// The running member answers from when it serves: here only once the
	// request is in etcd (as a member that registered before it served).
	learned := make(chan shared.Learned, 1)
	go func() {
		got, err := fresh.LearnGenerations(ctxFor(t), "fresh", patience, false)
		if err != nil {
			t.Error(err)
		}
		learned <- got
	}()
	raw := rawClient(t, srv)
	for deadline := time.Now().Add(patience); ; time.Sleep(10 * time.Millisecond) {
		if r, err := raw.Get(ctxFor(t), prefix+"/gensync/", clientv3.WithPrefix(), clientv3.WithCountOnly()); err == nil && r.Count > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the new member wrote no request")
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := running.ServeGenerations(ctx, "running"); err != nil {
		t.Fatal(err)
	}
	got := <-learned
	if len(got.Answered) != 1 || got.Answered[0] != "running" || got.Keys < 2 {
		t.Fatalf("the new member learned %+v; want the running member's answer, raising bob's and the flag's generations", got)
	}
	if _, ok, err := fresh.Get(ctxFor(t), shared.Agents, "bob"); ok || err != nil {
		t.Fatalf("the new member reads bob's record written back as live (%v, %v); want it refused", ok, err)
	}
	if st, _ := fresh.Stop(ctxFor(t)); !st.Stopped {
		t.Fatalf("the new member reads the flag written back as %+v; want the owner's Stop", st)
	}
	for _, key := range []string{prefix + "/agents/bob", prefix + "/stop"} {
		n := 0
		for line := range strings.Lines(log.String()) {
			if strings.Contains(line, "is older than") && strings.Contains(line, "key="+key+" ") {
				n++
			}
		}
		if n != 1 {
			t.Errorf("the new member logged the record written back at %s as older %d times, want once: %s", key, n, log.String())
		}
	}
}

// An answer not signed with the cluster's secret teaches nothing, and a
// member that hears from no one after the wait learns nothing and says
// so (its caller decides whether to start).
func TestForgedAnswersTeachNothing(t *testing.T) {
	srv := etcdtest.Start(t)
	running := open(t, srv)
	if _, err := running.Register(ctxFor(t), shared.Member{ID: "silent", Addr: "127.0.0.1:7001"}); err != nil {
		t.Fatal(err)
	}
	raw := rawClient(t, srv)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	t.Cleanup(func() { cancel(); <-done })
	go func() {
		defer close(done)
		// the attacker answers every request, as the registered member
		w := raw.Watch(ctx, prefix+"/gensync/", clientv3.WithPrefix())
		for resp := range w {
			for _, ev := range resp.Events {
				if strings.Contains(strings.TrimPrefix(string(ev.Kv.Key), prefix+"/gensync/"), "/") {
					continue // an answer: its own
				}
				_, _ = raw.Put(ctx, string(ev.Kv.Key)+"/silent", `buddi-signed-v2 00 1 live
{"gens":{"/stop":18446744073709551615}}`)
			}
		}
	}()
	log := &logBuf{}
	fresh, err := openWith(t, srv, testSecret, log)
	if err != nil {
		t.Fatal(err)
	}
	got, err := fresh.LearnGenerations(ctxFor(t), "fresh", 2*time.Second, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Answered) != 0 || got.Keys != 0 || len(got.Asked) != 1 {
		t.Fatalf("with only a forged answer the new member learned %+v; want nothing, having asked the registered member", got)
	}
	if st, err := fresh.Stop(ctxFor(t)); err != nil || st.Stopped {
		t.Fatalf("the forged answer changed what the new member reads of the flag: %+v (%v)", st, err)
	}
	if log.count("not signed with this cluster's secret") == 0 {
		t.Errorf("the forged answer was not logged: %s", log.String())
	}
}
