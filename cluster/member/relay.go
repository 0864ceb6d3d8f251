package member

import (
	"context"
	"sync"
	"time"

	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// In a cluster every member's dashboard and Telegram show every member's
// sessions, tasks and site requests as they change: each member tells the
// others what its own actors publish of these, and publishes what it is
// told on its own bus. Steps and snapshots (the journal, pictures) cost
// more, a message per act: a member tells them only while another member
// says someone watches there (memberWatching), and its sessions take
// snapshots for that watcher as for one of its own.

// memberEvent is one event a member tells the others: one field is set.
type memberEvent struct {
	Session  *messages.SessionChanged    `json:"session,omitempty"`
	Task     *messages.TaskChanged       `json:"task,omitempty"`
	Approval *messages.ApprovalRequested `json:"approval,omitempty"`
	Step     *messages.StepTaken         `json:"step,omitempty"`
	Snapshot *messages.SnapshotTaken     `json:"snapshot,omitempty"`
}

// memberWatching says someone on the telling member watches steps and
// snapshots, for the next For.
type memberWatching struct {
	For time.Duration `json:"for"`
}

// watchedKinds are the events told only while another member watches.
const watchedKinds = messages.KindStep | messages.KindSnapshot

// watchEvery is how often a member with a watcher says so; a watch it
// said holds for watchFor, so it lapses soon after the watcher leaves.
const (
	watchEvery = 3 * time.Second
	watchFor   = 10 * time.Second
)

func (e *memberEvent) event() messages.Event {
	switch {
	case e.Session != nil:
		return e.Session
	case e.Task != nil:
		return e.Task
	case e.Approval != nil:
		return e.Approval
	case e.Step != nil:
		return e.Step
	case e.Snapshot != nil:
		return e.Snapshot
	}
	return nil
}

// maxHeard bounds the events heard from other members that the relay has
// not seen yet.
const maxHeard = 4096

// relayPause is the least time between two batches of events told.
const relayPause = 50 * time.Millisecond

// relayKinds are the events members tell each other.
const relayKinds = messages.KindSession | messages.KindTask | messages.KindApproval

// relay tells the other members the events this member's actors publish;
// heard publishes theirs here, and those are not told again.
type relay struct {
	mem   *Self
	mu    sync.Mutex
	heard map[messages.Event]bool // published here from another member, not yet seen by the relay
}

// start follows the bus until ctx ends; stop waits for it.
func (r *relay) start(ctx context.Context) (stop func()) {
	// Passive: the relay itself must not make sessions take snapshots.
	sub := r.mem.parts.Gateway.Subscribe(events.Filter{Kinds: relayKinds | watchedKinds, Passive: true})
	var wg sync.WaitGroup
	wg.Go(func() { r.announce(ctx) })
	wg.Go(func() {
		defer sub.Close()
		for {
			ev, err := sub.Next(ctx)
			if err != nil {
				return
			}
			for _, e := range append([]messages.Event{ev}, sub.Drain()...) {
				r.tell(e)
			}
			// Events of one session, task or request that come faster
			// than this coalesce in the subscription meanwhile: the others
			// see its latest state, not every step.
			select {
			case <-ctx.Done():
				return
			case <-time.After(relayPause):
			}
		}
	})
	return wg.Wait
}

// tell sends one event of this member's actors to the others.
func (r *relay) tell(e messages.Event) {
	r.mu.Lock()
	if r.heard[e] {
		delete(r.heard, e)
		r.mu.Unlock()
		return
	}
	r.mu.Unlock()
	m := &memberEvent{}
	switch ev := e.(type) {
	case *messages.SessionChanged:
		m.Session = ev
	case *messages.TaskChanged:
		m.Task = ev
	case *messages.ApprovalRequested:
		m.Approval = ev
	case *messages.StepTaken:
		if !r.mem.parts.Bus.WatchedElsewhere(messages.KindStep) {
			return
		}
		cp := *ev
		cp.Picture = nil // Telegram's, on this member
		m.Step = &cp
	case *messages.SnapshotTaken:
		if !r.mem.parts.Bus.WatchedElsewhere(messages.KindSnapshot) {
			return
		}
		m.Snapshot = ev
	default:
		return
	}
	if err := r.mem.grains.Tell(m); err != nil {
		r.mem.log.Debug("an event was not told to the other members", "err", err)
	}
}

// announce tells the other members, while someone watches steps and
// snapshots here (a dashboard), that they should tell theirs.
func (r *relay) announce(ctx context.Context) {
	t := time.NewTicker(watchEvery)
	defer t.Stop()
	for {
		if r.mem.parts.Bus.WatchedHere(messages.KindSnapshot) {
			if err := r.mem.grains.Tell(&memberWatching{For: watchFor}); err != nil {
				r.mem.log.Debug("a watch was not told to the other members", "err", err)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// hear publishes another member's event here.
func (r *relay) hear(m *memberEvent) {
	e := m.event()
	if e == nil {
		return
	}
	r.mu.Lock()
	if len(r.heard) >= maxHeard { // events the relay never saw (coalesced away): forget them
		clear(r.heard)
	}
	r.heard[e] = true
	r.mu.Unlock()
	r.mem.parts.Bus.Publish(e)
}
