package grains

import (
	"errors"

	"github.com/asynkron/protoactor-go/actor"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// The placement actors' messages. They cross members as envelopes of
// their own registry, like session messages do.
type (
	// placeRequest asks an identity's authority for its activation;
	// Stale is one the caller found gone.
	placeRequest struct {
		Identity string   `json:"identity"`
		Stale    *wirePID `json:"stale,omitempty"`
	}
	// placed answers a placeRequest with the live activation.
	placed struct {
		PID *wirePID `json:"pid"`
	}
	// noRoom answers a placeRequest when every member refused: how many
	// members there are and how many sessions they hold in all.
	noRoom struct {
		Members  int `json:"members"`
		Sessions int `json:"sessions"`
	}
	// notPlaced answers a placeRequest when a member asked did not
	// answer: the caller asks again.
	notPlaced struct{}

	// activate asks a member's activator to activate an identity; a
	// Probe only asks whether it holds it.
	activate struct {
		Identity string `json:"identity"`
		Probe    bool   `json:"probe,omitempty"`
	}
	// notHeld answers a probe for an identity the member does not hold.
	notHeld struct{}
	// activated answers activate with the activation, new or held.
	activated struct {
		PID *wirePID `json:"pid"`
	}
	// full answers activate when the member holds its capacity.
	full struct {
		Capacity int `json:"capacity"`
	}

	// held tells an authority of a live activation (after the topology
	// changed, the authority may be new); released tells it one stopped.
	held struct {
		Identity string   `json:"identity"`
		PID      *wirePID `json:"pid"`
	}
	released struct {
		Identity string   `json:"identity"`
		PID      *wirePID `json:"pid"`
	}
)

// wirePID is a PID as JSON.
type wirePID struct {
	Address string `json:"address"`
	ID      string `json:"id"`
}

func pidOf(p *actor.PID) *wirePID { return &wirePID{Address: p.Address, ID: p.Id} }

func (w *wirePID) pid() *actor.PID {
	if w == nil {
		return nil
	}
	return actor.NewPID(w.Address, w.ID)
}

func samePID(a, b *actor.PID) bool {
	return a != nil && b != nil && a.Address == b.Address && a.Id == b.Id
}

// newPlacementTypes registers the placement messages in a registry of
// their own, which a member seals with the cluster's key as it does its
// session messages: a placement message without a valid seal is refused.
func newPlacementTypes() *Registry {
	r := NewRegistry()
	for _, err := range []error{
		Register[placeRequest](r, "grains.place"),
		Register[placed](r, "grains.placed"),
		Register[noRoom](r, "grains.noRoom"),
		Register[notPlaced](r, "grains.notPlaced"),
		Register[activate](r, "grains.activate"),
		Register[activated](r, "grains.activated"),
		Register[full](r, "grains.full"),
		Register[notHeld](r, "grains.notHeld"),
		Register[held](r, "grains.held"),
		Register[released](r, "grains.released"),
		Register[hello](r, "grains.hello"),
		Register[helloBack](r, "grains.helloBack"),
	} {
		if err != nil {
			panic(err) // constant names and types: cannot fail
		}
	}
	return r
}

// wire encodes a placement message, which always encodes, afresh for each
// send: every send carries a nonce of its own.
func (p *placement) wire(msg any) *wrapperspb.BytesValue {
	w, err := p.types.encode(msg)
	if err != nil {
		panic(err) // a placement message is registered and plain JSON
	}
	return w
}

// unwire decodes a placement message; anything else, and one whose seal
// does not verify, is nil.
func (p *placement) unwire(msg any) any {
	w, ok := msg.(*wrapperspb.BytesValue)
	if !ok {
		return nil
	}
	m, err := p.types.decode(w)
	if err != nil {
		p.refused(err)
		return nil
	}
	return m
}

// refused counts a placement message refused for its seal; tests read it.
func (p *placement) refused(err error) {
	if errors.Is(err, ErrUnsealed) {
		p.unsealed.Add(1)
	}
}
