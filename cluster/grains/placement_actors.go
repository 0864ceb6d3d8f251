package grains

import (
	"errors"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/remote"
)

// placer is a member's placement authority for the identities whose
// rendezvous order it heads: it keeps their live activations and places
// new ones. It never blocks: asking a member to activate continues in a
// later turn (ReenterAfter), and requests for an identity being placed
// wait for that placement.
type placer struct {
	places  *placement
	members []string
	settled time.Time               // until when placements probe first
	live    map[string]*actor.PID   // identity → its activation
	waiting map[string][]*actor.PID // identity being placed → who asked
}

func (p *placer) Receive(ctx actor.Context) {
	if t, ok := ctx.Message().(*topology); ok {
		p.onTopology(t)
		return
	}
	switch msg := p.places.unwire(ctx.Message()).(type) {
	case *placeRequest:
		p.onPlace(ctx, msg)
	case *held:
		p.onHeld(ctx, msg)
	case *released:
		if samePID(p.live[msg.Identity], msg.PID.pid()) {
			delete(p.live, msg.Identity)
		}
	}
}

// onTopology forgets the activations on members that left and those it
// is no longer the authority for: their holders tell the new authority.
func (p *placer) onTopology(t *topology) {
	p.members = t.members
	p.settled = time.Now().Add(settleWait)
	for id, pid := range p.live {
		if !slices.Contains(t.members, pid.Address) || rendezvous(id, t.members)[0] != p.places.self {
			delete(p.live, id)
		}
	}
}

func (p *placer) onPlace(ctx actor.Context, req *placeRequest) {
	id := req.Identity
	if req.Stale != nil && samePID(p.live[id], req.Stale.pid()) {
		delete(p.live, id)
	}
	if pid, ok := p.live[id]; ok {
		ctx.Respond(p.places.wire(&placed{PID: pidOf(pid)}))
		return
	}
	if ctx.Sender() == nil {
		return
	}
	if w, ok := p.waiting[id]; ok {
		p.waiting[id] = append(w, ctx.Sender())
		return
	}
	p.waiting[id] = []*actor.PID{ctx.Sender()}
	if len(p.members) == 0 {
		p.answer(ctx, id, &notPlaced{})
		return
	}
	p.try(ctx, &attempt{id: id, order: rendezvous(id, p.members), probing: time.Now().Before(p.settled)})
}

// attempt is one placement in progress: the members in rendezvous order,
// the next to ask, the sessions the full ones hold, whether one could
// not be asked, and whether they are only asked if they hold it (after a
// topology change).
type attempt struct {
	id       string
	order    []string
	next     int
	sessions int
	skipped  bool
	probing  bool
}

// try asks the next member of a to activate its identity; a full member
// or one that is gone passes it on to the one after.
func (p *placer) try(ctx actor.Context, a *attempt) {
	if a.next == len(a.order) && a.probing {
		// no member holds it: place it
		a.next, a.skipped, a.probing = 0, false, false
	}
	if a.next == len(a.order) {
		if a.skipped {
			p.answer(ctx, a.id, &notPlaced{})
		} else {
			p.answer(ctx, a.id, &noRoom{Members: len(a.order), Sessions: a.sessions})
		}
		return
	}
	target := actor.NewPID(a.order[a.next], activatorName)
	a.next++
	f := ctx.RequestFuture(target, p.places.wire(&activate{Identity: a.id, Probe: a.probing}), activateWait)
	ctx.ReenterAfter(f, func(res any, err error) {
		switch r := p.places.unwire(res).(type) {
		case *activated:
			p.record(ctx, a.id, r.PID.pid())
		case *notHeld:
			p.try(ctx, a)
		case *full:
			a.sessions += r.Capacity
			p.try(ctx, a)
		default:
			if isDeadLetter(err) {
				// the member is gone, or leaving: it activated nothing
				a.skipped = true
				p.try(ctx, a)
				return
			}
			// no answer: the member may have activated it; ask again
			// later, when it answers that it holds it
			p.answer(ctx, a.id, &notPlaced{})
		}
	})
}

// record keeps a new activation, unless a holder reported one for the
// identity meanwhile: that one has the session's state, and the new one
// is stopped.
func (p *placer) record(ctx actor.Context, id string, pid *actor.PID) {
	if old, ok := p.live[id]; ok && !samePID(old, pid) {
		p.places.twice(id, old, pid)
		ctx.Poison(pid)
		pid = old
	}
	p.live[id] = pid
	p.answer(ctx, id, &placed{PID: pidOf(pid)})
}

// onHeld keeps an activation a holder reports; one placed here for the
// same identity meanwhile is stopped.
func (p *placer) onHeld(ctx actor.Context, msg *held) {
	pid := msg.PID.pid()
	if old, ok := p.live[msg.Identity]; ok && !samePID(old, pid) {
		p.places.twice(msg.Identity, pid, old)
		ctx.Poison(old)
	}
	p.live[msg.Identity] = pid
}

// twice logs a session found activated twice: kept has its state, and
// stopped is stopped.
func (p *placement) twice(id string, kept, stopped *actor.PID) {
	if p.log != nil {
		p.log.Warn("grains: a session was activated on two members; the one placed meanwhile is stopped", "session", id, "kept", kept.Address, "stopped", stopped.Address)
	}
}

// answer tells everyone waiting on id's placement.
func (p *placer) answer(ctx actor.Context, id string, msg any) {
	for _, to := range p.waiting[id] {
		ctx.Send(to, p.places.wire(msg))
	}
	delete(p.waiting, id)
}

func isDeadLetter(err error) bool {
	return errors.Is(err, actor.ErrDeadLetter) || errors.Is(err, remote.ErrDeadLetter)
}

// activator holds a member's activations, its children, and refuses a
// new one while it holds the member's capacity.
type activator struct {
	places  *placement
	kind    *actor.Props
	members []string
	live    map[string]*actor.PID // identity → activation
	ids     map[string]string     // activation's PID id → identity
}

func (a *activator) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *topology:
		a.members = msg.members
		for id, pid := range a.live {
			a.tell(ctx, id, &held{Identity: id, PID: pidOf(pid)})
		}
	case *actor.Terminated:
		if id, ok := a.ids[msg.Who.Id]; ok {
			delete(a.ids, msg.Who.Id)
			delete(a.live, id)
			a.tell(ctx, id, &released{Identity: id, PID: pidOf(msg.Who)})
		}
	default:
		switch req := a.places.unwire(msg).(type) {
		case *activate:
			a.onActivate(ctx, req)
		case *hello:
			ctx.Respond(a.places.wire(&helloBack{Challenge: req.Challenge}))
		}
	}
}

func (a *activator) onActivate(ctx actor.Context, req *activate) {
	id := req.Identity
	if pid, ok := a.live[id]; ok {
		ctx.Respond(a.places.wire(&activated{PID: pidOf(pid)}))
		return
	}
	if req.Probe {
		ctx.Respond(a.places.wire(&notHeld{}))
		return
	}
	if c := a.places.capacity; c > 0 && len(a.live) >= c {
		ctx.Respond(a.places.wire(&full{Capacity: c}))
		return
	}
	props := cluster.WithClusterIdentity(a.kind, cluster.NewClusterIdentity(id, Kind))
	pid := ctx.SpawnPrefix(props, id)
	if a.places.log != nil {
		a.places.log.Debug("grains: session activated here", "session", id, "members", len(a.members))
	}
	a.live[id] = pid
	a.ids[pid.Id] = id
	ctx.Respond(a.places.wire(&activated{PID: pidOf(pid)}))
	if s := ctx.Sender(); s != nil && len(a.members) > 0 && rendezvous(id, a.members)[0] != s.Address {
		// placed by a member whose list is behind or ahead of this one's:
		// the authority this member knows hears of it now, not at the
		// next change of the list, lest it place the session again
		a.tell(ctx, id, &held{Identity: id, PID: pidOf(pid)})
	}
}

// tell sends msg to the authority for id.
func (a *activator) tell(ctx actor.Context, id string, msg any) {
	if len(a.members) == 0 {
		return
	}
	ctx.Send(actor.NewPID(rendezvous(id, a.members)[0], placerName), a.places.wire(msg))
}
