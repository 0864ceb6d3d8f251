package grains

import (
	"crypto/rand"
	"encoding/hex"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// Admission: protoactor's member list (in etcd under <prefix>/protoactor,
// or in the pods' labels) is not signed, so whoever writes there can add
// a member at an address of their choosing. Every placement message is
// sealed, so such a member can neither answer nor send one; what it could
// do is be chosen: as the authority of a share of the identities (whose
// lookups would then wait on it and fail) or as a member asked to
// activate one (each attempt costing activateWait). So a sealed placement
// routes only to the members that proved they hold the cluster's key: a
// new address in the topology is sent a sealed hello with a fresh random
// challenge, and is admitted once its activator answers with the
// challenge, sealed (a captured answer carries another challenge). Until
// then, and for good when it never answers, it has no part in placement;
// the refusal is logged once per address. An unsealed registry (tests of
// this package only) admits every member.

// helloEvery is the pause between two hellos to a member that has not
// answered (a member just started may not run its activator yet).
const helloEvery = 2 * time.Second

type (
	// hello asks a member to prove it holds the cluster's key.
	hello struct {
		Challenge string `json:"challenge"`
	}
	// helloBack answers a hello with its challenge.
	helloBack struct {
		Challenge string `json:"challenge"`
	}
)

// admit takes a topology's addresses (of members hosting Kind): those
// proven before and this member stay admitted, the others are sent a
// hello, and the placement actors are told once each has answered or
// failed to within activateWait.
func (p *placement) admit(addrs []string) {
	p.mu.Lock()
	p.seen = addrs
	p.version++
	version := p.version
	if p.types.sealKey() == nil {
		p.mu.Unlock()
		p.publish(version)
		return
	}
	for a := range p.proven {
		if !slices.Contains(addrs, a) {
			delete(p.proven, a)
		}
	}
	var asks []string
	for _, a := range addrs {
		if a != p.self && !p.proven[a] && !p.asking[a] {
			p.asking[a] = true
			asks = append(asks, a)
		}
	}
	p.mu.Unlock()
	done := make(chan struct{}, len(asks))
	for _, a := range asks {
		go p.greet(a, done)
	}
	go func() {
		deadline := time.After(activateWait)
		for range asks {
			select {
			case <-done:
			case <-deadline:
				p.publish(version)
				return
			}
		}
		p.publish(version)
	}()
}

// greet says hello to addr until it answers, while addr is in the
// topology; done hears after the first attempt.
func (p *placement) greet(addr string, done chan<- struct{}) {
	defer func() {
		p.mu.Lock()
		delete(p.asking, addr)
		p.mu.Unlock()
	}()
	for first := true; ; first = false {
		ok := p.hello(addr)
		p.mu.Lock()
		current := slices.Contains(p.seen, addr) && !p.closed
		if ok && current {
			p.proven[addr] = true
		}
		version := p.version
		p.mu.Unlock()
		if first {
			done <- struct{}{}
		} else if ok && current {
			p.publish(version)
		}
		if ok || !current {
			return
		}
		if first && p.log != nil {
			p.log.Warn("grains: a member in protoactor's list does not prove it holds the cluster's key; no conversation is placed on it (a forged entry, or a member started with another secret)", "address", addr)
		}
		time.Sleep(helloEvery)
	}
}

// hello reports whether the activator at addr answers a fresh challenge,
// sealed.
func (p *placement) hello(addr string) bool {
	raw := make([]byte, 16)
	_, _ = rand.Read(raw)
	challenge := hex.EncodeToString(raw)
	reply, err := p.cluster.ActorSystem.Root.RequestFuture(actor.NewPID(addr, activatorName), p.wire(&hello{Challenge: challenge}), activateWait).Result()
	if err != nil {
		return false
	}
	back, ok := p.unwire(reply).(*helloBack)
	return ok && back.Challenge == challenge
}

// publish tells the placement actors the admitted members of the topology
// of version, unless a newer topology came meanwhile (it publishes).
func (p *placement) publish(version uint64) {
	p.mu.Lock()
	if version != p.version || p.closed {
		p.mu.Unlock()
		return
	}
	sealed := p.types.sealKey() != nil
	var members []string
	for _, a := range p.seen {
		if !sealed || a == p.self || p.proven[a] {
			members = append(members, a)
		}
	}
	p.members = members
	// sent under the lock, so the actors hear the lists in the order made
	root := p.cluster.ActorSystem.Root
	root.Send(p.placer, &topology{members: slices.Clone(members)})
	root.Send(p.activator, &topology{members: slices.Clone(members)})
	if p.onRoutes != nil {
		p.onRoutes(slices.Clone(members))
	}
	p.mu.Unlock()
}

// admitted is the members placement routes to (this one included).
func (p *placement) admitted() []string {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return slices.Clone(p.members)
}
