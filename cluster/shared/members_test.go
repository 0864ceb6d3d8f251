package shared_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/shared"
)

// memberChildEnv makes the test binary a member that registers and waits
// to be killed; its value is etcd's endpoint.
const memberChildEnv = "BUDDI_SHARED_TEST_MEMBER"

func register(t testing.TB, s *shared.Store, id, addr string) *shared.Registration {
	t.Helper()
	r, err := s.Register(ctxFor(t), shared.Member{ID: id, Addr: addr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Leave)
	return r
}

// membersWatch follows WatchMembers and keeps every list it delivered.
type membersWatch struct{ ch chan []shared.Member }

func watchMembers(t testing.TB, s *shared.Store) *membersWatch {
	t.Helper()
	w := &membersWatch{ch: make(chan []shared.Member, 1024)}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := s.WatchMembers(ctx, func(ms []shared.Member) { w.ch <- ms }); err != nil {
		t.Fatal(err)
	}
	return w
}

// waitFor returns the first list that satisfies ok, failing t after patience.
func (w *membersWatch) waitFor(t testing.TB, what string, ok func([]shared.Member) bool) []shared.Member {
	t.Helper()
	var last []shared.Member
	deadline := time.After(patience)
	for {
		select {
		case ms := <-w.ch:
			if ok(ms) {
				return ms
			}
			last = ms
		case <-deadline:
			t.Fatalf("no member list %s within %v; the last was %+v", what, patience, last)
		}
	}
}

func ids(ms []shared.Member) string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.ID
	}
	return strings.Join(out, ",")
}

func byID(ms []shared.Member, id string) (shared.Member, bool) {
	i := slices.IndexFunc(ms, func(m shared.Member) bool { return m.ID == id })
	if i < 0 {
		return shared.Member{}, false
	}
	return ms[i], true
}

// Three members registered through three clients are listed by every
// client, each with its address; a capacity update reaches a watch; a
// member that leaves is gone from the list at once.
func TestMembersRegisterUpdateAndLeave(t *testing.T) {
	srv := etcdtest.Start(t)
	a, b, c := open(t, srv), open(t, srv), open(t, srv)
	w := watchMembers(t, c)
	ra := register(t, a, "a", "127.0.0.1:7001")
	register(t, b, "b", "127.0.0.1:7002")
	register(t, c, "c", "127.0.0.1:7003")
	w.waitFor(t, "with a, b and c", func(ms []shared.Member) bool { return ids(ms) == "a,b,c" })
	ms, err := b.Members(ctxFor(t))
	if err != nil || ids(ms) != "a,b,c" {
		t.Fatalf("b lists %+v, %v", ms, err)
	}
	if m, _ := byID(ms, "b"); m.Addr != "127.0.0.1:7002" || m.Since.IsZero() {
		t.Fatalf("b is listed as %+v", m)
	}

	busy := shared.Capacity{Profiles: 2, ProfilesInUse: 1, Sessions: 16, SessionsInUse: 3}
	ra.Update(busy)
	w.waitFor(t, "with a's new capacity", func(ms []shared.Member) bool {
		m, ok := byID(ms, "a")
		return ok && m.Capacity == busy
	})

	ra.Leave()
	ra.Leave() // a second Leave is harmless
	w.waitFor(t, "without a", func(ms []shared.Member) bool { return ids(ms) == "b,c" })
}

// A member restarted with the same id takes its key over: it is listed
// once, at its new address.
func TestMemberRestartKeepsOneEntry(t *testing.T) {
	srv := etcdtest.Start(t)
	s := open(t, srv)
	w := watchMembers(t, s)
	register(t, open(t, srv), "m1", "127.0.0.1:7001")
	w.waitFor(t, "with m1", func(ms []shared.Member) bool { return ids(ms) == "m1" })
	// The first run's registration is still alive when the second starts
	// at the same address: it is taken over.
	register(t, open(t, srv), "m1", "127.0.0.1:7001")
	ms := w.waitFor(t, "m1 alone", func(ms []shared.Member) bool { return ids(ms) == "m1" })
	if len(ms) != 1 {
		t.Fatalf("after a restart the list is %+v", ms)
	}
}

// A second live member under one id at another address (a data directory
// copied between hosts) is refused, naming the address that holds it; a
// member killed without leaving is not in the way of its id registered
// again at another address once its lease runs out.
func TestAMemberIDHeldAliveElsewhereIsRefused(t *testing.T) {
	srv := etcdtest.Start(t)
	register(t, open(t, srv), "m1", "127.0.0.1:7001")
	_, err := open(t, srv).Register(ctxFor(t), shared.Member{ID: "m1", Addr: "127.0.0.1:7002"})
	var taken *shared.IDTakenError
	if !errors.As(err, &taken) || taken.Addr != "127.0.0.1:7001" || !strings.Contains(err.Error(), "member-id") {
		t.Fatalf("a second live m1 registered with %v; want IDTakenError naming 127.0.0.1:7001 and the member-id file", err)
	}

	child := startMember(t, srv.Endpoint())
	if err := child.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = child.Wait()
	register(t, open(t, srv), "child", "127.0.0.1:7998") // waits out the dead child's lease
}

// A member killed with SIGKILL (no Leave, no revoke) disappears from the
// list when its lease runs out, while a live member stays.
func TestKilledMemberDisappearsWhenItsLeaseEnds(t *testing.T) {
	srv := etcdtest.Start(t)
	s := open(t, srv)
	register(t, s, "alive", "127.0.0.1:7001")
	w := watchMembers(t, s)
	child := startMember(t, srv.Endpoint())
	w.waitFor(t, "with the child", func(ms []shared.Member) bool { return ids(ms) == "alive,child" })
	if err := child.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = child.Wait()
	w.waitFor(t, "without the killed child", func(ms []shared.Member) bool { return ids(ms) == "alive" })
}

// A member's key needs a readable id and an address.
func TestRegisterRefusesBadMembers(t *testing.T) {
	s := open(t, etcdtest.Start(t))
	for name, m := range map[string]shared.Member{
		"empty id":      {Addr: "127.0.0.1:1"},
		"slash in id":   {ID: "a/b", Addr: "127.0.0.1:1"},
		"long id":       {ID: strings.Repeat("x", 65), Addr: "127.0.0.1:1"},
		"no address":    {ID: "a"},
		"space in id":   {ID: "a b", Addr: "127.0.0.1:1"},
		"non-ascii id":  {ID: "é", Addr: "127.0.0.1:1"},
		"dot-dot in id": {ID: "..", Addr: "127.0.0.1:1"},
	} {
		t.Run(name, func(t *testing.T) {
			if r, err := s.Register(ctxFor(t), m); err == nil {
				r.Leave()
				t.Fatal("Register accepted it")
			}
		})
	}
	if ms, err := s.Members(ctxFor(t)); err != nil || len(ms) != 0 {
		t.Fatalf("after refusals the list is %+v, %v", ms, err)
	}
}

// startMember runs this test binary as a member named child.
func startMember(t *testing.T, endpoint string) *exec.Cmd {
	t.Helper()
	cmd, line := etcdtest.Child(t, memberChildEnv, endpoint)
	if line != "registered" {
		t.Fatalf("the member process said %q", line)
	}
	return cmd
}

// runMemberChild registers a member named child and waits to be killed.
func runMemberChild(endpoint string) int {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := shared.Open(ctx, shared.Config{Endpoints: []string{endpoint}, Prefix: prefix, Secret: testSecret})
	if err == nil {
		_, err = s.Register(ctx, shared.Member{ID: "child", Addr: "127.0.0.1:7999"})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("registered")
	select {}
}

// A member whose lease is lost (revoked from outside, as when etcd expired
// it during a partition) is registered again under a new lease, with the
// capacity it last reported.
func TestLostLeaseIsGrantedAgain(t *testing.T) {
	srv := etcdtest.Start(t)
	s := open(t, srv)
	w := watchMembers(t, s)
	r := register(t, s, "m1", "127.0.0.1:7001")
	busy := shared.Capacity{Profiles: 1, ProfilesInUse: 1, Sessions: 8, SessionsInUse: 2}
	r.Update(busy)
	w.waitFor(t, "with m1 busy", func(ms []shared.Member) bool { return len(ms) == 1 && ms[0].Capacity == busy })

	raw, err := clientv3.New(clientv3.Config{Endpoints: []string{srv.Endpoint()}, DialTimeout: 10 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	got, err := raw.Get(ctxFor(t), prefix+"/members/m1")
	if err != nil || len(got.Kvs) != 1 || got.Kvs[0].Lease == 0 {
		t.Fatalf("m1's key: %+v, %v", got, err)
	}
	lost := clientv3.LeaseID(got.Kvs[0].Lease)
	if _, err := raw.Revoke(ctxFor(t), lost); err != nil {
		t.Fatal(err)
	}
	w.waitFor(t, "without m1 once its lease is revoked", func(ms []shared.Member) bool { return len(ms) == 0 })
	w.waitFor(t, "with m1 back", func(ms []shared.Member) bool { return len(ms) == 1 && ms[0].Capacity == busy })
	again, err := raw.Get(ctxFor(t), prefix+"/members/m1")
	if err != nil || len(again.Kvs) != 1 || clientv3.LeaseID(again.Kvs[0].Lease) == lost {
		t.Fatalf("m1's key after the lease was lost: %+v, %v", again, err)
	}
}
