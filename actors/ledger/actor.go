package ledger

import (
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/cockroachdb/pebble/v2"

	"github.com/buddi-dev/buddi/actors"
)

// Actor is the only writer of the Store. It commits in groups: a write is
// staged when it arrives and a flush marker is sent to itself, so every
// write already in the mailbox joins the same batch and costs no fsync of
// its own. An owner write commits at once, with whatever is staged.
type Actor struct {
	store *Store
	log   *slog.Logger
	stage *stage
	spare *stage // the last committed stage, to make the next of
	// values encodes what a write puts, in one buffer kept across writes.
	values encoder
	// flushing is true while a flush marker waits in the mailbox.
	flushing bool
	// last is the order of the newest op committed per key.
	last   *committedOrders
	refs   refusals
	pruner pruner
	// tombstones counts the deletes committed since the last compaction
	// the pruner asked for: the controller deletes the records of ended
	// conversations too, and their space comes back only once compacted.
	tombstones int
}

// flush is the marker that commits what is staged.
type flush struct{}

// NewActor returns the ledger actor over an opened store, pruning the
// records of ended conversations on ret. The store outlives the actor (a
// restart of its supervisor restarts it over the same store); whoever
// opened the store closes it once the actor system has stopped.
func NewActor(store *Store, log *slog.Logger, ret Retention) *Actor {
	return &Actor{store: store, log: log, last: newOrders(), pruner: pruner{ret: ret}}
}

// Props are the ledger's props: a mailbox with an owner lane.
func Props(store *Store, log *slog.Logger, ret Retention) *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor { return NewActor(store, log, ret) },
		actor.WithMailbox(actor.UnboundedPriority()), actor.WithDispatcher(actors.Dispatcher))
}

// Receive stages writes and commits them in groups.
func (a *Actor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *Write:
		if !a.staged(ctx, m) {
			return
		}
		if m.Owner {
			a.commit(ctx)
			return
		}
		if !a.flushing {
			a.flushing = true
			ctx.Send(ctx.Self(), &flush{})
		}
	case *flush:
		a.flushing = false
		a.commit(ctx)
	case *prune:
		a.prunePass(ctx)
	case *actor.Started:
		a.pruner.schedule(ctx.ActorSystem(), ctx.Self(), a.pruner.ret.every())
	case *actor.Stopping:
		a.pruner.stop()
		a.commit(ctx)
	case *actor.Restarting:
		a.pruner.stop()
	case *actor.Stopped:
	default:
		actors.Unhandled(ctx, a.log)
	}
}

// staged adds w to the batch being built; a write that cannot be staged
// is answered at once and commits nothing.
func (a *Actor) staged(ctx actor.Context, w *Write) bool {
	if a.stage == nil {
		a.stage, a.spare = newStage(a.store.db, a.spare), nil
	}
	if err := a.stage.add(w, a.last, &a.values); err != nil {
		a.log.Error("ledger write refused", "err", err)
		if w.ReplyTo != nil {
			ctx.Send(w.ReplyTo, &Written{Err: err})
		}
		return false
	}
	return true
}

// commit applies the staged batch with one fsync (none if no write in it
// asked for one) and answers every write in it.
func (a *Actor) commit(ctx actor.Context) {
	// Rotated on every call, staged or not: the pruning timer's calls
	// forget the orders of an idle ledger.
	a.last.rotate(time.Now())
	st := a.stage
	if st == nil {
		return
	}
	a.stage = nil
	if len(st.waiting) == 0 {
		_ = st.b.Close()
		return
	}
	a.store.beforeCommit()
	opts := pebble.Sync
	if st.noSync {
		opts = pebble.NoSync
	}
	start := time.Now()
	err := a.store.db.Apply(st.b, opts)
	a.store.committed(time.Since(start))
	_ = st.b.Close()
	if err != nil {
		a.log.Error("ledger write failed", "err", err, "writes", len(st.waiting))
	} else {
		st.committed(a.last)
		a.last.wroteAt(time.Now())
		a.tombstones += st.deleted
	}
	if err == nil {
		a.trim(st.refused)
	}
	for _, w := range st.waiting {
		if w.ReplyTo != nil {
			ctx.Send(w.ReplyTo, &Written{Err: err})
		}
	}
	a.spare = st
}
