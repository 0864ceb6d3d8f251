package grains

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/eventstream"
)

// Names of the two actors every member runs for placement.
const (
	placerName    = "buddi-placement"
	activatorName = "buddi-activator"
)

// Waits inside placement: how long the authority waits for a member to
// activate, and how long a lookup waits for the authority before asking
// again (longer: the authority may ask more than one member).
const (
	activateWait = 5 * time.Second
	lookupWait   = 2 * activateWait
)

// settleWait is how long after a topology change an authority first asks
// every member whether it holds an identity it does not know, before it
// places it: the holders' reports may not have arrived yet.
const settleWait = 5 * time.Second

// placement is buddi's identity lookup: capacity-aware placement of
// session grains. For each identity one member is the authority, the
// first of the members hosting the kind in the identity's rendezvous
// order; its placer actor keeps the identity's live activation and, for a
// new one, asks the members in that same order to activate it until one
// has room. Each member's activator actor holds its activations and
// refuses a new one when it holds Capacity.
type placement struct {
	capacity int
	types    *Registry    // the placement messages, sealed as the member's are
	unsealed atomic.Int64 // placement messages refused for their seal
	losses   *losses      // the member's: tells a wait on an authority that died

	mu      sync.RWMutex
	members []string // addresses of the admitted members hosting Kind
	self    string
	seen    []string        // the last topology's members hosting Kind
	version uint64          // of seen, counted
	proven  map[string]bool // members that answered a hello (admission.go)
	asking  map[string]bool // members being said hello to
	closed  bool
	log     *slog.Logger
	// onRoutes is Config.OnRoutes (nil: none)
	onRoutes func(addrs []string)

	cluster   *cluster.Cluster
	sub       *eventstream.Subscription
	placer    *actor.PID
	activator *actor.PID
	once      sync.Once
}

var _ cluster.IdentityLookup = (*placement)(nil)

func newPlacement(capacity int) *placement {
	return &placement{capacity: capacity, types: newPlacementTypes(), proven: map[string]bool{}, asking: map[string]bool{}}
}

// Setup starts the placer and the activator, and follows the topology.
func (p *placement) Setup(c *cluster.Cluster, _ []string, _ bool) {
	p.cluster = c
	p.self = c.ActorSystem.Address()
	root := c.ActorSystem.Root
	kind := c.GetClusterKind(Kind)
	p.activator, _ = root.SpawnNamed(actor.PropsFromProducer(func() actor.Actor {
		return &activator{places: p, kind: kind.Props, live: map[string]*actor.PID{}, ids: map[string]string{}}
	}), activatorName)
	p.placer, _ = root.SpawnNamed(actor.PropsFromProducer(func() actor.Actor {
		return &placer{places: p, live: map[string]*actor.PID{}, waiting: map[string][]*actor.PID{}}
	}), placerName)
	p.sub = c.ActorSystem.EventStream.Subscribe(p.follow)
}

// follow copies the addresses of a topology's members that host Kind
// (protoactor hands its member sets out without a lock) and tells both
// actors those admitted (admission.go).
func (p *placement) follow(ev any) {
	t, ok := ev.(*cluster.ClusterTopology)
	if !ok {
		return
	}
	var addrs []string
	for _, m := range t.Members {
		if m.HasKind(Kind) {
			addrs = append(addrs, m.Address())
		}
	}
	p.admit(addrs)
}

// Shutdown stops the activations, the activator and the placer; protoactor
// calls it twice on a graceful shutdown, so it runs once.
func (p *placement) Shutdown() {
	p.once.Do(func() {
		p.mu.Lock()
		p.closed = true
		p.mu.Unlock()
		system := p.cluster.ActorSystem
		system.EventStream.Unsubscribe(p.sub)
		_ = system.Root.PoisonFuture(p.activator).Wait()
		_ = system.Root.PoisonFuture(p.placer).Wait()
	})
}

// Get is the cluster.IdentityLookup entry protoactor's own cluster
// context uses: the activation, or nil when there is none to be had
// within activateWait. Member.Request calls place instead.
func (p *placement) Get(ci *cluster.ClusterIdentity) *actor.PID {
	if ci.Kind != Kind {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), activateWait)
	defer cancel()
	pid, err := p.place(ctx, ci.Identity, nil)
	if err != nil {
		return nil
	}
	return pid
}

// RemovePid tells the identity's authority that pid is gone.
func (p *placement) RemovePid(ci *cluster.ClusterIdentity, pid *actor.PID) {
	if ci.Kind != Kind {
		return
	}
	if authority := p.authority(ci.Identity); authority != "" {
		p.cluster.ActorSystem.Root.Send(actor.NewPID(authority, placerName),
			p.wire(&released{Identity: ci.Identity, PID: pidOf(pid)}))
	}
}

// errNoMember is a lookup before any member hosting Kind is known.
var errNoMember = errors.New("grains: no member hosting sessions is known yet")

// errNotPlaced is an authority that could not place the identity this
// time (a member it asked did not answer): ask again.
var errNotPlaced = errors.New("grains: the placement authority could not place the session this time")

// place asks the identity's authority for its activation, which the
// authority makes on a member with room if there is none; stale is an
// activation the caller found gone. It returns a *NoRoomError when every
// member is full, and errNoMember, errNotPlaced or a future's error when
// asking again may help.
func (p *placement) place(ctx context.Context, identity string, stale *actor.PID) (*actor.PID, error) {
	authority := p.authority(identity)
	if authority == "" {
		return nil, errNoMember
	}
	wait := lookupWait
	if d, ok := ctx.Deadline(); ok {
		wait = min(wait, time.Until(d))
	}
	if wait <= 0 {
		return nil, cause(ctx)
	}
	req := &placeRequest{Identity: identity}
	if stale != nil {
		req.Stale = pidOf(stale)
	}
	future := p.cluster.ActorSystem.Root.RequestFuture(actor.NewPID(authority, placerName), p.wire(req), wait)
	done := make(chan result, 1)
	go func() {
		reply, err := future.Result()
		done <- result{reply, err}
	}()
	var lost <-chan struct{} // nil: never
	if p.losses != nil && authority != p.cluster.ActorSystem.Address() {
		ch, unwatch := p.losses.watch(authority)
		defer unwatch()
		lost = ch
	}
	select {
	case r := <-done:
		if r.err != nil {
			return nil, r.err
		}
		return p.placedOf(r.reply)
	case <-lost: // the authority died: ask its successor once the topology says
		return nil, errNotPlaced
	case <-ctx.Done():
		return nil, cause(ctx)
	}
}

// placedOf reads an authority's answer to a placeRequest.
func (p *placement) placedOf(reply any) (*actor.PID, error) {
	switch a := p.unwire(reply).(type) {
	case *placed:
		return a.PID.pid(), nil
	case *noRoom:
		return nil, &NoRoomError{Members: a.Members, Sessions: a.Sessions}
	case *notPlaced:
		return nil, errNotPlaced
	default:
		return nil, fmt.Errorf("grains: the placement authority answered %T", reply)
	}
}

// authority is the address of the member that places identity, or ""
// before any member hosting Kind is known.
func (p *placement) authority(identity string) string {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if len(p.members) == 0 {
		return ""
	}
	return rendezvous(identity, p.members)[0]
}

// rendezvous orders members for identity, highest score first: the score
// of a member is FNV-1a (32 bits) over the identity then its address, the
// hash protoactor's disthash picks its one owner by; ties go to the lower
// address.
func rendezvous(identity string, members []string) []string {
	type scored struct {
		addr  string
		score uint32
	}
	s := make([]scored, len(members))
	for i, addr := range members {
		h := fnv.New32a()
		_, _ = h.Write([]byte(identity))
		_, _ = h.Write([]byte(addr))
		s[i] = scored{addr, h.Sum32()}
	}
	slices.SortFunc(s, func(a, b scored) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.addr, b.addr)
	})
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = x.addr
	}
	return out
}

// topology is the member list as the placement actors see it.
type topology struct{ members []string }
