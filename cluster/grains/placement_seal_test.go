package grains

import (
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// A placer answers a sealed placement request and refuses one without a
// valid seal: it never reaches the placer, which answers nothing.
func TestAnUnsealedPlacementMessageIsRefused(t *testing.T) {
	const key = "0123456789abcdef-the-cluster-key"
	system := actor.NewActorSystem()
	t.Cleanup(system.Shutdown)
	p := newPlacement(0)
	if err := p.types.Seal([]byte(key), nil); err != nil {
		t.Fatal(err)
	}
	pid := system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor {
		return &placer{places: p, live: map[string]*actor.PID{}, waiting: map[string][]*actor.PID{}}
	}))

	reply, err := system.Root.RequestFuture(pid, p.wire(&placeRequest{Identity: "c1"}), 10*time.Second).Result()
	if err != nil {
		t.Fatalf("a sealed request got no answer: %v", err)
	}
	if _, ok := p.unwire(reply).(*notPlaced); !ok {
		t.Fatalf("a sealed request, no member known: answered %T, want notPlaced", p.unwire(reply))
	}

	plain, err := newPlacementTypes().encode(&placeRequest{Identity: "c1"})
	if err != nil {
		t.Fatal(err)
	}
	other := newPlacementTypes()
	if err := other.Seal([]byte("another-key-0123456789"), nil); err != nil {
		t.Fatal(err)
	}
	forged, _ := other.encode(&placeRequest{Identity: "c1"})
	for name, w := range map[string]any{"unsealed": plain, "sealed with another key": forged} {
		if _, err := system.Root.RequestFuture(pid, w, time.Second).Result(); err == nil {
			t.Errorf("an %s placement request was answered", name)
		}
	}
	if got := p.unsealed.Load(); got != 2 {
		t.Fatalf("the placer counted %d refused placement messages, want 2", got)
	}
}
