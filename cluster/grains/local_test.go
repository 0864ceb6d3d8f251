package grains_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/grains"
)

// localMember joins a member whose Local answers Where with its address.
func localMember(t testing.TB, srv *etcdtest.Server) *grains.Member {
	t.Helper()
	cfg := config(srv.Endpoint(), types(t, true))
	var self string
	cfg.Local = func(msg any) any {
		if _, ok := msg.(*Where); ok {
			return &Count{Addr: self}
		}
		return nil
	}
	m, err := grains.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	self = m.Address()
	t.Cleanup(func() { m.Shutdown(false) })
	return m
}

// Each reaches every member, itself included, once; a member that left
// is not asked, and one without a Local is reported, not waited for.
func TestEachAsksEveryMemberOnce(t *testing.T) {
	if raceDetector {
		t.Skip("protoactor's cluster races on its own state; TestClusterWithoutTheRaceDetector runs this test without the race detector")
	}
	srv := etcdtest.Start(t)
	a, b := localMember(t, srv), localMember(t, srv)
	waitMembers(t, a, b)
	addrs := func(answers []any) []string {
		var out []string
		for _, v := range answers {
			out = append(out, v.(*Count).Addr)
		}
		slices.Sort(out)
		return out
	}
	want := []string{a.Address(), b.Address()}
	slices.Sort(want)
	got, err := b.Each(context.Background(), &Where{})
	if err != nil || !slices.Equal(addrs(got), want) {
		t.Fatalf("Each through b answered %v (%v), want %v", addrs(got), err, want)
	}

	plain := start(t, srv, types(t, true)) // no Local
	waitMembers(t, a, b, plain)
	got, err = a.Each(context.Background(), &Where{})
	if err == nil || !slices.Equal(addrs(got), want) {
		t.Fatalf("Each with a member without Local answered %v (%v); want %v and an error naming it", addrs(got), err, want)
	}
	plain.Shutdown(true)
	waitMembers(t, a, b)
	if got, err = a.Each(context.Background(), &Where{}); err != nil || len(got) != 2 {
		t.Fatalf("Each after a member left answered %v (%v)", got, err)
	}
}

// A member whose registry is sealed with another key (not of this
// cluster), though it is in protoactor's member list, is never admitted
// by the cluster's members: they place no grain on it, send it nothing
// and keep serving every identity while it runs; its own messages are
// refused where they arrive.
func TestAMemberWithoutTheClustersKeyReachesNoGrain(t *testing.T) {
	if raceDetector {
		t.Skip("protoactor's cluster races on its own state; TestClusterWithoutTheRaceDetector runs this test without the race detector")
	}
	srv := etcdtest.Start(t)
	sealedMember := func(key string) *grains.Member {
		r := types(t, true)
		if err := r.Seal([]byte(key), nil); err != nil {
			t.Fatal(err)
		}
		return start(t, srv, r)
	}
	a, b := sealedMember("the-cluster-key-0123456789"), sealedMember("the-cluster-key-0123456789")
	waitMembers(t, a, b)
	for i := range 6 { // some on each member
		id := "k" + string(rune('0'+i))
		if got := count(t, b, id, &Incr{}); got.N != 1 {
			t.Fatalf("%s through a keyed member answered %+v", id, got)
		}
	}
	outsider := sealedMember("not-the-cluster-key-987654")
	for _, m := range []*grains.Member{a, b} {
		for deadline := time.Now().Add(patience); !slices.Contains(grains.Listed(m), outsider.Address()); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s's topology never listed the outsider", m.Address())
			}
		}
	}
	// The outsider's placement messages are refused by the members, and
	// theirs by it: an identity gets an activation of its own there, on
	// itself, never one of the cluster's grains.
	for i := range 6 {
		id := "k" + string(rune('0'+i))
		got, err := outsider.Request(context.Background(), id, &Incr{})
		if c, ok := got.(*Count); err == nil && (!ok || c.Addr != outsider.Address()) {
			t.Fatalf("a member with another key reached %s's grain: %+v", id, got)
		}
	}
	// While it runs, the members route among themselves only: every
	// identity, whatever its rendezvous order with the outsider, counts on.
	for _, m := range []*grains.Member{a, b} {
		if got := m.Members(); slices.Contains(got, outsider.Address()) || len(got) != 2 {
			t.Fatalf("%s routes to %v; want a and b, never the outsider", m.Address(), got)
		}
	}
	for i := range 12 {
		id := "k" + string(rune('0'+i))
		want := 2
		if i >= 6 {
			want = 1
		}
		if got := count(t, a, id, &Incr{}); got.N != want || got.Addr == outsider.Address() {
			t.Fatalf("%s through a counted %+v with the outsider in the list; want %d, on a or b", id, got, want)
		}
	}
}

// Tell reaches every other member's Local, and not the teller's own.
func TestTellReachesEveryOtherMember(t *testing.T) {
	if raceDetector {
		t.Skip("protoactor's cluster races on its own state; TestClusterWithoutTheRaceDetector runs this test without the race detector")
	}
	srv := etcdtest.Start(t)
	heard := make(chan string, 8)
	member := func(name string) *grains.Member {
		cfg := config(srv.Endpoint(), types(t, true))
		cfg.Local = func(msg any) any {
			if _, ok := msg.(*Where); ok {
				heard <- name
			}
			return nil
		}
		m, err := grains.Start(cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { m.Shutdown(false) })
		return m
	}
	a, b, c := member("a"), member("b"), member("c")
	waitMembers(t, a, b, c)
	if err := a.Tell(&Where{}); err != nil {
		t.Fatal(err)
	}
	got := []string{<-heard, <-heard}
	slices.Sort(got)
	if !slices.Equal(got, []string{"b", "c"}) {
		t.Fatalf("a's Tell was heard by %v, want b and c", got)
	}
	select {
	case who := <-heard:
		t.Fatalf("%s heard a's Tell twice, or a heard its own", who)
	case <-time.After(500 * time.Millisecond):
	}
}

// What one member tells another with TellTo arrives in order, and an Ask
// after it answers once the told messages are in.
func TestTellToArrivesInOrderAndAskAnswers(t *testing.T) {
	if raceDetector {
		t.Skip("protoactor's cluster races on its own state; TestClusterWithoutTheRaceDetector runs this test without the race detector")
	}
	srv := etcdtest.Start(t)
	cfg := config(srv.Endpoint(), types(t, true))
	var got []int // only the local actor touches it, one message at a time
	cfg.Local = func(msg any) any {
		switch m := msg.(type) {
		case *Count:
			got = append(got, m.N)
		case *Where:
			return &Count{N: len(got)}
		}
		return nil
	}
	a := startConfig(t, cfg)
	b := start(t, srv, types(t, true))
	waitMembers(t, a, b)
	for i := range 200 {
		if err := b.TellTo(a.Address(), &Count{N: i}); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	v, err := b.Ask(ctx, a.Address(), &Where{})
	if err != nil {
		t.Fatal(err)
	}
	if n := v.(*Count).N; n != 200 {
		t.Fatalf("a had %d of the 200 told messages when b's Ask arrived", n)
	}
	if !slices.IsSorted(got) || len(got) != 200 || got[0] != 0 {
		t.Fatalf("a heard %v; want 0 to 199 in order", got)
	}
}

// An envelope captured between two sealed members and sent again is
// refused where it arrives: the receiver takes it once, and the count of
// what it took stays one while the next message, encoded afresh, arrives.
func TestACapturedEnvelopeSentAgainIsRefusedByTheMember(t *testing.T) {
	if raceDetector {
		t.Skip("protoactor's cluster races on its own state; TestClusterWithoutTheRaceDetector runs this test without the race detector")
	}
	srv := etcdtest.Start(t)
	const key = "the-cluster-key-0123456789"
	var incr int // only b's local actor touches it, one message at a time
	member := func(local grains.Local) *grains.Member {
		r := types(t, true)
		if err := r.Seal([]byte(key), nil); err != nil {
			t.Fatal(err)
		}
		cfg := config(srv.Endpoint(), r)
		cfg.Local = local
		m, err := grains.Start(cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { m.Shutdown(false) })
		return m
	}
	a := member(nil)
	b := member(func(msg any) any {
		switch msg.(type) {
		case *Incr:
			incr++
		case *Where:
			return &Count{N: incr}
		}
		return nil
	})
	waitMembers(t, a, b)
	if err := grains.TellTwice(a, b.Address(), &Incr{}); err != nil {
		t.Fatal(err)
	}
	// What a member tells another arrives in order: the Ask's answer
	// comes after both copies were taken or refused.
	got, err := a.Ask(context.Background(), b.Address(), &Where{})
	if err != nil {
		t.Fatal(err)
	}
	if n := got.(*Count).N; n != 1 {
		t.Fatalf("b took the envelope %d times, want once", n)
	}
}

// A Local answer that must wait (a grains.Later) runs off the local
// actor's mailbox: a message after it is answered meanwhile, and the
// waiting one is answered once it is done.
func TestALocalAnswerThatWaitsHoldsUpNoOther(t *testing.T) {
	if raceDetector {
		t.Skip("protoactor's cluster races on its own state; TestClusterWithoutTheRaceDetector runs this test without the race detector")
	}
	srv := etcdtest.Start(t)
	cfg := config(srv.Endpoint(), types(t, true))
	release := make(chan struct{})
	cfg.Local = func(msg any) any {
		switch msg.(type) {
		case *Where:
			return grains.Later(func(ctx context.Context) any {
				select {
				case <-release:
					return &Count{Addr: "waited"}
				case <-ctx.Done():
					return nil
				}
			})
		case *Odd:
			return &Count{Addr: "at once"}
		}
		return nil
	}
	m, err := grains.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Shutdown(false) })
	waitMembers(t, m)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
	defer cancel()
	waited := make(chan any, 1)
	go func() {
		v, err := m.Ask(ctx, m.Address(), &Where{})
		if err != nil {
			v = err
		}
		waited <- v
	}()
	v, err := m.Ask(ctx, m.Address(), &Odd{})
	if c, ok := v.(*Count); err != nil || !ok || c.Addr != "at once" {
		t.Fatalf("a message after a waiting one was answered %v (%v)", v, err)
	}
	close(release)
	if c, ok := (<-waited).(*Count); !ok || c.Addr != "waited" {
		t.Fatalf("the waiting message was answered %v", c)
	}
}
