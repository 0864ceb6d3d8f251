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
	// flushing is true while a flush marker waits in the mailbox; lazy
	// while the lazy timer runs, for step counters alone (SetSteps).
	flushing, lazy bool
	lazyTimer      *time.Timer
	lazyWait       time.Duration
	// last is the order of the newest op committed per key.
	last   *committedOrders
	refs   refusals
	pruner pruner
	// tombstones counts the deletes committed since the last compaction
	// the pruner asked for: the controller deletes the records of ended
	// conversations too, and their space comes back only once compacted.
	tombstones int
}

// flush is the marker that commits what is staged; lazy when the lazy
// timer sent it.
type flush struct{ lazy bool }

// stepsSet is the marker SetSteps sends when the counters' table stops
// being empty.
type stepsSet struct{}

// LazyWait is how long step counters alone (Store.SetSteps) wait for more
// before they are committed: one commit and one fsync for the acts of many
// conversations instead of one for every few. Any other write commits them
// at once. Nobody waits on step counters (their acts were
// answered already), and a session restarted meanwhile carries its own
// count (session.Carry), so the wait delays no answer and no read that
// matters; a crash or a power cut loses at most the counts of this long
// and of the commit under way: an agent may then take again the acts of
// the last LazyWait, a step or two. At 2 ms, the counters of 10,000 acts/s
// made 500 commits and fsyncs a second, whose syscalls and the kernel's
// journal work took the cores the acts and the collector wait for: 20 ms
// made the p99 of the Done-when load test lower in each of four
// alternated pairs (7.6-13.3 ms against 9.2-26.6) and its CPU per act
// 3-8 % lower.
const LazyWait = 20 * time.Millisecond

// lazyWait is LazyWait, as tests may change it before a ledger starts.
var lazyWait = LazyWait

// lazyFlush is the lazy timer's marker.
var lazyFlush = &flush{lazy: true}

// NewActor returns the ledger actor over an opened store, pruning the
// records of ended conversations on ret. The store outlives the actor (a
// restart of its supervisor restarts it over the same store); whoever
// opened the store closes it once the actor system has stopped.
func NewActor(store *Store, log *slog.Logger, ret Retention) *Actor {
	return &Actor{store: store, log: log, last: newOrders(), pruner: pruner{ret: ret}, lazyWait: lazyWait}
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
		a.flushLater(ctx)
	case *flush:
		if m.lazy {
			a.lazy = false
		} else {
			a.flushing = false
		}
		a.commit(ctx)
	case *stepsSet:
		a.lazyLater(ctx)
	case *prune:
		a.prunePass(ctx)
	case *actor.Started:
		a.pruner.schedule(ctx.ActorSystem(), ctx.Self(), a.pruner.ret.every())
		sys, self := ctx.ActorSystem(), ctx.Self()
		if a.store.wakeOnSteps(func() { sys.Root.Send(self, &stepsSet{}) }) {
			a.lazyLater(ctx) // set while no ledger ran
		}
	case *actor.Stopping:
		a.pruner.stop()
		a.stopLazy()
		a.store.wakeOnSteps(nil)
		a.commit(ctx)
	case *actor.Restarting:
		a.pruner.stop()
		a.stopLazy()
		a.store.wakeOnSteps(nil)
	case *actor.Stopped:
	default:
		actors.Unhandled(ctx, a.log)
	}
}

// flushLater arranges the commit of what is staged once the writes
// already in the mailbox have joined it.
func (a *Actor) flushLater(ctx actor.Context) {
	if a.flushing || a.stage == nil {
		return
	}
	a.flushing = true
	ctx.Send(ctx.Self(), &flush{})
}

// lazyLater arranges the commit of the step counters set since the last
// one LazyWait from now, unless a commit is coming anyway.
func (a *Actor) lazyLater(ctx actor.Context) {
	if a.flushing || a.lazy {
		return
	}
	a.lazy = true
	if a.lazyTimer == nil {
		sys, self := ctx.ActorSystem(), ctx.Self()
		a.lazyTimer = time.AfterFunc(a.lazyWait, func() { sys.Root.Send(self, lazyFlush) })
		return
	}
	a.lazyTimer.Reset(a.lazyWait)
}

// stopLazy stops the lazy timer; what it would have committed is
// committed by the caller (Stopping) or lost with the actor's crash, as
// anything staged is.
func (a *Actor) stopLazy() {
	if a.lazyTimer != nil {
		a.lazyTimer.Stop()
	}
}

// takeSteps stages the step counters set since the last commit.
func (a *Actor) takeSteps() {
	a.store.drainSteps(func(op Op) {
		if a.stage == nil {
			a.stage, a.spare = newStage(a.store.db, a.spare), nil
		}
		if err := a.stage.addCounter(op, a.last, &a.values); err != nil {
			a.log.Error("ledger step counter refused", "err", err)
		}
	})
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

// commit applies the staged batch with one fsync and answers every write
// in it.
func (a *Actor) commit(ctx actor.Context) {
	// Rotated on every call, staged or not: the pruning timer's calls
	// forget the orders of an idle ledger.
	a.last.rotate(time.Now())
	a.takeSteps()
	st := a.stage
	if st == nil {
		return
	}
	a.stage = nil
	if len(st.waiting) == 0 && st.counted == 0 {
		_ = st.b.Close()
		return
	}
	a.store.beforeCommit()
	start := time.Now()
	// Synced always: a write Pebble does not sync stays in its log's
	// buffer, in this process, until a synced one or a full block flushes
	// it, and a kill -9 took it along.
	err := a.store.db.Apply(st.b, pebble.Sync)
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
