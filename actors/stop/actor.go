package stop

import (
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// Config is what the actor needs.
type Config struct {
	// Board is where the actor shows its decisions; Open made it from the
	// ledger.
	Board  *Board
	Ledger *actor.PID
	// Shared is the cluster's Stop flag in etcd; nil on a single host.
	Shared Shared
	Bus    *events.Bus
	Log    *slog.Logger
	Now    func() time.Time
}

// Props makes the actor.
func Props(cfg Config) *actor.Props {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return actor.PropsFromProducer(func() actor.Actor { return &Actor{cfg: cfg} })
}

// Actor holds the Stop. Its state is the View it shows, the follower, how
// far the follower, the ledger and etcd have come, and the owners waiting.
type Actor struct {
	cfg      Config
	cur      View
	follower *actor.PID
	settled  uint64                // the newest decision the follower fanned out
	closed   int                   // sessions it closed for that one
	saved    uint64                // the newest decision in the ledger
	shared   uint64                // the newest decision etcd has (written or heard)
	wrote    int64                 // etcd's revision of this member's newest write
	etcd     *messages.ClusterStop // the newest flag the watch delivered
	lastErr  error                 // why the newest attempt of the writer failed
	waiting  []*waiter
	writer   *writer
}

// Receive decides.
func (a *Actor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		a.start(ctx)
	case *actor.Stopping, *actor.Restarting:
		close(a.writer.done)
	case *messages.StopAll:
		a.decide(ctx, true, a.cfg.Now(), false)
		a.wait(ctx, false)
	case *messages.ResumeAll:
		a.decide(ctx, false, a.cfg.Now(), false)
		a.wait(ctx, true)
	case *messages.ClusterStop:
		a.cluster(ctx, m)
	case *Follow:
		a.follower = ctx.Sender()
		a.tell(ctx)
	case *Settled:
		if m.Gen >= a.settled {
			a.settled, a.closed = m.Gen, m.Sessions
		}
		a.publish()
		a.progress(ctx)
	case *landed:
		a.landed(m)
		a.adopt(ctx)
		a.publish()
		a.progress(ctx)
	case *failed:
		a.lastErr = m.err
		a.cfg.Log.Error("the Stop or resume is in force but not durable yet; retrying", "etcd", m.shared, "err", m.err)
	case *due:
		a.due(ctx, m)
	case *actor.Stopped:
	default:
		actors.Unhandled(ctx, a.cfg.Log)
	}
}

// start takes up the decision the Board shows. After a restart of this
// actor it may not be durable yet, so it is written again (a write that
// landed before is written the same), and etcd's flag is not taken over it
// until it lands.
func (a *Actor) start(ctx actor.Context) {
	a.cur = a.cfg.Board.Load()
	a.settled, a.saved, a.shared = a.cur.Gen, a.cur.Gen, a.cur.Gen
	a.writer = newWriter(a.cfg.Ledger, a.cfg.Shared)
	go a.writer.run(ctx.ActorSystem().Root, ctx.Self())
	if a.cur.Gen > 0 {
		a.saved, a.shared = 0, 0
		a.writer.put(record{gen: a.cur.Gen, stop: a.cur.Stop, toShared: a.cfg.Shared != nil})
	}
}

// decide makes a new decision: shown, told, published and written, in that
// order. fromCluster is a decision etcd holds already.
func (a *Actor) decide(ctx actor.Context, stopped bool, at time.Time, fromCluster bool) {
	a.cur.Gen++
	a.cur.Stop = ledger.Stop{Stopped: stopped, At: at}
	if fromCluster {
		a.shared = a.cur.Gen
	}
	if stopped {
		a.cfg.Log.Warn("all browser access stopped by the owner")
	} else {
		a.cfg.Log.Info("browser access resumed by the owner")
	}
	a.cfg.Board.show(a.cur)
	a.tell(ctx)
	a.publish()
	a.writer.put(record{gen: a.cur.Gen, stop: a.cur.Stop, toShared: a.cfg.Shared != nil && !fromCluster})
}

// tell sends the follower the View; it answers Settled.
func (a *Actor) tell(ctx actor.Context) {
	if a.follower != nil {
		ctx.Request(a.follower, &Changed{View: a.cur})
	}
}

func (a *Actor) landed(m *landed) {
	if m.shared {
		a.shared, a.wrote = max(a.shared, m.gen), max(a.wrote, m.rev)
	} else {
		a.saved = max(a.saved, m.gen)
	}
	if a.saved >= a.cur.Gen && (a.cfg.Shared == nil || a.shared >= a.cur.Gen) {
		a.lastErr = nil
	}
}

// publish tells subscribers where the decision in force is: at once, when
// the sessions dropped their work (Settled), and when the ledger has it
// (Saved).
func (a *Actor) publish() {
	settled := a.settled >= a.cur.Gen || !a.cur.Stop.Stopped
	sessions := 0
	if a.settled == a.cur.Gen {
		sessions = a.closed
	}
	a.cfg.Bus.Publish(&messages.StopChanged{Stopped: a.cur.Stop.Stopped, Settled: settled,
		Saved: a.saved >= a.cur.Gen, Sessions: sessions, At: a.cfg.Now()})
}

// cluster follows the member's watch of the shared Stop: etcd lost or
// back, and a Stop or resume another member (or this one) committed.
func (a *Actor) cluster(ctx actor.Context, m *messages.ClusterStop) {
	was := a.cur
	a.cur.Heard, a.cur.Down = true, ""
	if !m.Reachable {
		a.cur.Down = m.Why
		if a.cur.Down == "" {
			a.cur.Down = "it does not answer"
		}
	}
	switch {
	case a.cur.Down != "" && was.Down == "":
		a.cfg.Log.Warn("etcd cannot be reached: this member refuses new work until it can", "why", a.cur.Down)
	case a.cur.Down == "" && was.Down != "":
		a.cfg.Log.Info("etcd answers again")
	}
	if m.Reachable && (a.etcd == nil || m.Rev >= a.etcd.Rev) {
		a.etcd = m
	}
	if a.adopt(ctx) {
		return
	}
	if a.cur != was {
		a.cfg.Board.show(a.cur)
		a.tell(ctx)
	}
}

// adopt takes etcd's flag when it differs and is the newest decision: every
// decision made here has reached etcd, and the flag was committed after
// this member's own last write (or is that write). A decision etcd has
// not taken yet wins meanwhile, so a Stop is never lifted by a stale flag,
// and whatever order the writes and the watch's events arrive in, every
// member ends with the flag etcd committed last.
func (a *Actor) adopt(ctx actor.Context) bool {
	e := a.etcd
	if e == nil || a.shared < a.cur.Gen || e.Rev < a.wrote || e.Stopped == a.cur.Stop.Stopped {
		return false
	}
	a.cfg.Log.Info("the cluster's Stop changed on another member", "stopped", e.Stopped)
	a.decide(ctx, e.Stopped, e.At, true)
	return true
}
