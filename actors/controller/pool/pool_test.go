package pool_test

import (
	"context"
	"testing"

	"github.com/buddi-dev/buddi/actors/controller/pool"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
)

func TestPlacesSessionsOnProfilesUpToTheModesCapacity(t *testing.T) {
	mode := sim.NewMode(sim.Config{}, 2)
	p := pool.New(mode, 3, nil)
	ctx := context.Background()
	var profiles []int
	for range 6 {
		i, drv, e := p.Place(ctx, "")
		if e != nil || drv == nil {
			t.Fatalf("place: %v", e)
		}
		profiles = append(profiles, i)
	}
	if want := []int{0, 0, 0, 1, 1, 1}; !equal(profiles, want) {
		t.Fatalf("placed on %v, want %v", profiles, want)
	}
	if _, _, e := p.Place(ctx, ""); e == nil || e.Code != messages.CodeTooManySessions {
		t.Fatalf("a seventh session: %v", e)
	}
	p.Free(0)
	if i, _, e := p.Place(ctx, ""); e != nil || i != 0 {
		t.Fatalf("after a session of profile 0 left: %d %v", i, e)
	}
	if mode.Opened() != 2 {
		t.Fatalf("the mode opened %d drivers, want one per profile (2)", mode.Opened())
	}
	if err := p.Close(ctx); err != nil || len(mode.Drivers()) != 0 {
		t.Fatalf("close: %v, %d drivers left", err, len(mode.Drivers()))
	}
}

// With a profile per agent, each agent's sessions go to its own profile;
// when the profiles are all open, an idle one of another agent is closed to
// make room, and a busy one never is.
func TestPlacesEachAgentOnItsOwnProfile(t *testing.T) {
	mode := sim.NewMode(sim.Config{}, 2)
	p := pool.New(mode, 2, mode)
	ctx := context.Background()
	place := func(agent string) (int, *messages.Error) {
		i, _, e := p.Place(ctx, agent)
		return i, e
	}
	a1, _ := place("a")
	b1, _ := place("b")
	a2, _ := place("a")
	if a1 != a2 || a1 == b1 {
		t.Fatalf("a on %d and %d, b on %d: want a's two together and b apart", a1, a2, b1)
	}
	if _, e := place("a"); e == nil || e.Code != messages.CodeTooManySessions {
		t.Fatalf("a third session of a, its profile full: %v", e)
	}
	if _, e := place("c"); e == nil || e.Code != messages.CodeTooManySessions {
		t.Fatalf("c while both profiles are busy: %v", e)
	}
	p.Free(b1)
	c1, e := place("c")
	if e != nil || c1 == b1 || c1 == a1 {
		t.Fatalf("c after b's profile went idle: %d %v", c1, e)
	}
	if len(mode.Drivers()) != 2 {
		t.Fatalf("%d drivers open, want 2 (b's closed to make room)", len(mode.Drivers()))
	}
	p.Free(c1)
	p.Drop(ctx, "c")
	if len(mode.Drivers()) != 1 {
		t.Fatalf("%d drivers open after c was dropped, want a's only", len(mode.Drivers()))
	}
	if i, e := place("d"); e != nil || i == c1 {
		t.Fatalf("d after c was dropped: %d %v", i, e)
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
