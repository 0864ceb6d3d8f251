package grains_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/grains"
)

// gauge counts a member's live counters, as its producer makes them and
// they stop, and the most it ever held at once.
type gauge struct {
	mu         sync.Mutex
	live, most int
}

func (g *gauge) add(d int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.live += d
	g.most = max(g.most, g.live)
}

func (g *gauge) read() (live, most int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.live, g.most
}

// startLimited joins a member holding at most capacity sessions; its
// gauge counts them.
func startLimited(t *testing.T, srv *etcdtest.Server, capacity int) (*grains.Member, *gauge) {
	t.Helper()
	g := &gauge{}
	cfg := config(srv.Endpoint(), types(t, true))
	cfg.Capacity = capacity
	cfg.Produce = func(id string) actor.Actor {
		g.add(1)
		return &counter{identity: id, gauge: g}
	}
	m, err := grains.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Shutdown(false) })
	return m, g
}

// preferring returns an identity, new to this test, whose rendezvous
// order m heads: m places it, and activates it while it has room.
func preferring(t *testing.T, m *grains.Member, prefix string) string {
	t.Helper()
	for i := range 1000 {
		id := fmt.Sprintf("%s-%d", prefix, i)
		if m.Authority(id) == m.Address() {
			return id
		}
	}
	t.Fatalf("no identity of 1000 is placed by %s", m.Address())
	return ""
}

// checkGauges fails when a member ever held more than capacity.
func checkGauges(t *testing.T, capacity int, gs ...*gauge) {
	t.Helper()
	for i, g := range gs {
		if _, most := g.read(); most > capacity {
			t.Errorf("member %d held %d sessions at once, more than its capacity %d", i, most, capacity)
		}
	}
}

func TestAFullClusterRefusesANewSessionNamingItsLimit(t *testing.T) {
	srv, _ := cluster(t, 0)
	a, ga := startLimited(t, srv, 2)
	b, gb := startLimited(t, srv, 2)
	waitMembers(t, a, b)
	held := map[string]int{}
	where := map[string]string{}
	for i := range 4 {
		id := fmt.Sprintf("cap-%d", i)
		c := count(t, []*grains.Member{a, b}[i%2], id, &Incr{})
		held[c.Addr]++
		where[id] = c.Addr
	}
	if held[a.Address()] != 2 || held[b.Address()] != 2 {
		t.Errorf("4 sessions were placed %v, not 2 on each member", held)
	}
	checkGauges(t, 2, ga, gb)

	for _, m := range []*grains.Member{a, b} {
		_, err := m.Request(context.Background(), "cap-4", &Incr{})
		var full *grains.NoRoomError
		if !errors.Is(err, grains.ErrNoRoom) || !errors.As(err, &full) {
			t.Fatalf("a 5th session through %s answered %v, not ErrNoRoom", m.Address(), err)
		}
		want := "Every member of the cluster is full: 2 members hold at most 4 sessions in all; release a session or add a member."
		if err.Error() != want {
			t.Errorf("the refusal says %q, not %q", err, want)
		}
	}
	// the sessions held are still reached, through either member
	for id, addr := range where {
		if c := count(t, b, id, &Where{}); c.Addr != addr || c.N != 1 {
			t.Errorf("after the refusal %s counts %d on %s, not 1 on %s", id, c.N, c.Addr, addr)
		}
	}

	quit := count(t, a, "cap-0", &Quit{})
	c := countWhileFull(t, b, "cap-4")
	if c.Addr != quit.Addr {
		t.Errorf("cap-4 was activated on %s, not on %s where cap-0 freed a slot", c.Addr, quit.Addr)
	}
	checkGauges(t, 2, ga, gb)
	if _, err := a.Request(context.Background(), "cap-0", &Incr{}); !errors.Is(err, grains.ErrNoRoom) {
		t.Errorf("cap-0, stopped and its slot taken by cap-4, answered %v, not ErrNoRoom", err)
	}
}

// countWhileFull sends Incr to id until a slot is free (a stopped
// activation frees its slot when its member sees it stop).
func countWhileFull(t *testing.T, m *grains.Member, id string) *Count {
	t.Helper()
	deadline := time.Now().Add(patience)
	for {
		reply, err := m.Request(context.Background(), id, &Incr{})
		if err == nil {
			return reply.(*Count)
		}
		if !errors.Is(err, grains.ErrNoRoom) || time.Now().After(deadline) {
			t.Fatalf("%s through %s: %v", id, m.Address(), err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestAFullMemberPassesANewSessionToOneWithRoom(t *testing.T) {
	srv, _ := cluster(t, 0)
	small, gs := startLimited(t, srv, 1)
	big, _ := startLimited(t, srv, 0)
	waitMembers(t, small, big)
	first := preferring(t, small, "first")
	if c := count(t, big, first, &Incr{}); c.Addr != small.Address() {
		t.Fatalf("%s, which %s places, was activated on %s while it had room", first, small.Address(), c.Addr)
	}
	second := preferring(t, small, "second")
	for _, m := range []*grains.Member{small, big} {
		if c := count(t, m, second, &Incr{}); c.Addr != big.Address() {
			t.Errorf("with %s full, %s was reached on %s through %s, not on %s", small.Address(), second, c.Addr, m.Address(), big.Address())
		}
	}
	checkGauges(t, 1, gs)
}

func TestSessionsOfAMemberThatLeftFitTheRemainingMember(t *testing.T) {
	for name, graceful := range map[string]bool{"graceful": true, "hard": false} {
		t.Run(name, func(t *testing.T) {
			srv, _ := cluster(t, 0)
			holder, _ := startLimited(t, srv, 2)
			rest, gr := startLimited(t, srv, 2)
			waitMembers(t, holder, rest)
			gone := preferring(t, holder, "gone")
			if c := count(t, rest, gone, &Incr{}); c.Addr != holder.Address() {
				t.Fatalf("%s was activated on %s, not on %s which places it", gone, c.Addr, holder.Address())
			}
			stays := preferring(t, rest, "stays")
			count(t, rest, stays, &Incr{})

			holder.Shutdown(graceful)
			after := incrUntilAnswered(t, rest, gone)
			if after.Addr != rest.Address() || after.N != 1 {
				t.Errorf("after its member left %s counted %d on %s, not 1 on %s", gone, after.N, after.Addr, rest.Address())
			}
			_, err := rest.Request(context.Background(), preferring(t, rest, "more"), &Incr{})
			if !errors.Is(err, grains.ErrNoRoom) || !strings.Contains(err.Error(), "1 member holds at most 2 sessions;") {
				t.Errorf("a third session on the remaining member answered %v, not ErrNoRoom naming its 2", err)
			}
			checkGauges(t, 2, gr)
		})
	}
}

func TestNoRoomErrorNamesTheLimitInOneSentence(t *testing.T) {
	for _, c := range []struct {
		err  *grains.NoRoomError
		want string
	}{
		{&grains.NoRoomError{Members: 3, Sessions: 24}, "Every member of the cluster is full: 3 members hold at most 24 sessions in all; release a session or add a member."},
		{&grains.NoRoomError{Members: 1, Sessions: 1}, "Every member of the cluster is full: 1 member holds at most 1 session; release a session or add a member."},
	} {
		var err error = c.err
		if err.Error() != c.want {
			t.Errorf("%+v says %q, not %q", *c.err, err, c.want)
		}
		if !errors.Is(fmt.Errorf("wrapped: %w", err), grains.ErrNoRoom) {
			t.Errorf("%+v is not ErrNoRoom", *c.err)
		}
	}
}

func TestANegativeCapacityIsRefused(t *testing.T) {
	cfg := config("http://127.0.0.1:1", types(t, true))
	cfg.Capacity = -1
	if m, err := grains.Start(cfg); err == nil || !strings.Contains(err.Error(), "capacity") {
		if m != nil {
			m.Shutdown(false)
		}
		t.Fatalf("a negative capacity started with %v, not an error naming the capacity", err)
	}
}

// A session placed away from its authority (the authority was full)
// stays one activation, with its state, when the authority leaves: its
// holder reports it to the new authority. The full authority's own
// session is activated again on the one member with room.
func TestASessionOutlivesItsAuthority(t *testing.T) {
	t.Run("graceful", func(t *testing.T) {
		srv, _ := cluster(t, 0)
		a, _ := startLimited(t, srv, 1)
		outlive(t, srv, a.Address(), func(b, c *grains.Member) {
			waitMembers(t, a, b, c)
		}, func() { a.Shutdown(true) })
	})
	t.Run("killed", func(t *testing.T) {
		srv, _ := cluster(t, 0)
		child, addr := startChild(t, srv.Endpoint(), 1)
		outlive(t, srv, addr, func(b, c *grains.Member) {
			waitFor(t, "every member to route to the child", func() bool {
				return len(b.Members()) == 3 && len(c.Members()) == 3
			})
		}, func() {
			if err := child.Process.Kill(); err != nil {
				t.Fatal(err)
			}
		})
	})
}

// outlive starts b (no limit) and c (capacity 1) beside the authority at
// addr (capacity 1), fills the authority and c, places a session on b
// through the authority, and checks it after leave.
func outlive(t *testing.T, srv *etcdtest.Server, addr string, joined func(b, c *grains.Member), leave func()) {
	b, _ := startLimited(t, srv, 0)
	c, gc := startLimited(t, srv, 1)
	joined(b, c)
	placedByA := func(prefix string) string {
		for i := range 1000 {
			if id := fmt.Sprintf("%s-%d", prefix, i); b.Authority(id) == addr {
				return id
			}
		}
		t.Fatalf("no identity of 1000 is placed by %s", addr)
		return ""
	}
	x, y := placedByA("x"), placedByA("y")
	if got := count(t, b, x, &Incr{}); got.Addr != addr {
		t.Fatalf("%s was activated on %s, not on %s which places it", x, got.Addr, addr)
	}
	z := preferring(t, c, "z")
	if got := count(t, c, z, &Incr{}); got.Addr != c.Address() {
		t.Fatalf("%s was activated on %s, not on %s which places it", z, got.Addr, c.Address())
	}
	count(t, b, y, &Incr{})
	if got := count(t, b, y, &Incr{}); got.Addr != b.Address() || got.N != 2 {
		t.Fatalf("with %s and %s full, %s counted %d on %s, not 2 on %s", addr, c.Address(), y, got.N, got.Addr, b.Address())
	}

	leave()
	if got := incrUntilAnswered(t, c, y); got.Addr != b.Address() || got.N != 3 {
		t.Errorf("after its authority left %s counted %d on %s, not 3 on %s (one activation, its state kept)", y, got.N, got.Addr, b.Address())
	}
	if got := incrUntilAnswered(t, c, x); got.Addr != b.Address() || got.N != 1 {
		t.Errorf("after its member left %s counted %d on %s, not 1 on %s, the member with room", x, got.N, got.Addr, b.Address())
	}
	checkGauges(t, 1, gc)
}

// Many callers asking for more new sessions than there are slots, at
// once and through both members: every slot fills, no member holds more
// than its capacity, and each session placed is one activation.
func TestABurstOfNewSessionsFillsTheSlotsExactly(t *testing.T) {
	srv, _ := cluster(t, 0)
	a, ga := startLimited(t, srv, 3)
	b, gb := startLimited(t, srv, 3)
	waitMembers(t, a, b)
	type outcome struct {
		id   string
		addr string
		err  error
	}
	out := make(chan outcome)
	for i := range 10 {
		id := fmt.Sprintf("burst-%d", i)
		for _, m := range []*grains.Member{a, b, a, b} {
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), patience)
				defer cancel()
				reply, err := m.Request(ctx, id, &Where{})
				o := outcome{id: id, err: err}
				if c, ok := reply.(*Count); ok {
					o.addr = c.Addr
				}
				out <- o
			}()
		}
	}
	placed := map[string]string{}
	for range 40 {
		o := <-out
		switch {
		case o.err == nil:
			if at, ok := placed[o.id]; ok && at != o.addr {
				t.Errorf("%s answered from %s and from %s: two activations", o.id, at, o.addr)
			}
			placed[o.id] = o.addr
		case !errors.Is(o.err, grains.ErrNoRoom):
			t.Errorf("%s: %v", o.id, o.err)
		}
	}
	if len(placed) != 6 {
		t.Errorf("%d of 10 sessions were placed, not 6 (two members of 3): %v", len(placed), placed)
	}
	checkGauges(t, 3, ga, gb)
	for _, g := range []*gauge{ga, gb} {
		if live, _ := g.read(); live != 3 {
			t.Errorf("a member holds %d sessions after the burst, not its 3", live)
		}
	}
}

// A member that joins becomes the authority for some sessions already
// active elsewhere: it learns them (their holders report them, and it
// asks the members for a while after the change) and activates none of
// them again, so every session keeps its state.
func TestAMemberThatJoinsMovesNoSession(t *testing.T) {
	srv, ms := cluster(t, 2)
	before := map[string]string{}
	for i := range 30 {
		id := fmt.Sprintf("j-%d", i)
		before[id] = count(t, ms[i%2], id, &Incr{}).Addr
	}
	joined, g := startLimited(t, srv, 0)
	waitMembers(t, ms[0], ms[1], joined)
	authority := 0
	for id, addr := range before {
		if joined.Authority(id) == joined.Address() {
			authority++
		}
		if c := count(t, joined, id, &Incr{}); c.N != 2 || c.Addr != addr {
			t.Errorf("after a member joined %s counted %d on %s, not 2 on %s", id, c.N, c.Addr, addr)
		}
	}
	if authority == 0 {
		t.Errorf("the member that joined places none of 30 sessions: the test shows nothing")
	}
	if live, _ := g.read(); live != 0 {
		t.Errorf("the member that joined holds %d sessions, not 0", live)
	}
	if c := count(t, joined, preferring(t, joined, "new"), &Incr{}); c.Addr != joined.Address() {
		t.Errorf("a new session the joined member places was activated on %s, not on it", c.Addr)
	}
}

// A session placed by a member whose list is behind the cluster's (it
// does not know a third member yet) is known at once to the authority of
// the full list: the session is not placed again there once that
// authority stops asking every member first.
func TestASessionPlacedOnAnOldListIsKnownToTheNewAuthority(t *testing.T) {
	_, ms := cluster(t, 3)
	a, b, c := ms[0], ms[1], ms[2]
	grains.PlaceAsIf(a, []string{a.Address(), b.Address()})
	id := ""
	for i := 0; id == "" && i < 1000; i++ {
		// c places it on the full list, a itself on the list a knows
		if n := fmt.Sprintf("behind-%d", i); c.Authority(n) == c.Address() && a.Authority(n) == a.Address() {
			id = n
		}
	}
	if id == "" {
		t.Fatal("no identity of 1000 is placed by c on the full list and by a on a's")
	}
	first := count(t, a, id, &Incr{})
	if first.Addr == c.Address() {
		t.Fatalf("a member that knows only a and b placed %s on c", id)
	}
	time.Sleep(grains.SettleWait + time.Second) // c no longer asks the members before it places
	if got := count(t, c, id, &Incr{}); got.N != 2 || got.Addr != first.Addr {
		t.Fatalf("through its authority %s counted %d on %s; want 2 on %s, where it was placed", id, got.N, got.Addr, first.Addr)
	}
}
