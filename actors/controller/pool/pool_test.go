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
	p := pool.New(mode, 3)
	ctx := context.Background()
	var profiles []int
	for range 6 {
		i, drv, e := p.Place(ctx)
		if e != nil || drv == nil {
			t.Fatalf("place: %v", e)
		}
		profiles = append(profiles, i)
	}
	if want := []int{0, 0, 0, 1, 1, 1}; !equal(profiles, want) {
		t.Fatalf("placed on %v, want %v", profiles, want)
	}
	if _, _, e := p.Place(ctx); e == nil || e.Code != messages.CodeTooManySessions {
		t.Fatalf("a seventh session: %v", e)
	}
	p.Free(0)
	if i, _, e := p.Place(ctx); e != nil || i != 0 {
		t.Fatalf("after a session of profile 0 left: %d %v", i, e)
	}
	if mode.Opened() != 2 {
		t.Fatalf("the mode opened %d drivers, want one per profile (2)", mode.Opened())
	}
	if err := p.Close(ctx); err != nil || len(mode.Drivers()) != 0 {
		t.Fatalf("close: %v, %d drivers left", err, len(mode.Drivers()))
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
