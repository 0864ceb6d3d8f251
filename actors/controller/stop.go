package controller

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// stopAnswerWait bounds how long the owner waits for the sessions to drop
// their work and close their tabs.
const stopAnswerWait = 15 * time.Second

// stopping is the Stops and resumes waiting to be answered: each waits for
// the sessions (a Stop) and for the ledger, whichever comes last.
type stopping struct {
	gen     int
	waiting map[int]*stopWait
	// sharedPending is the decision etcd has not taken yet (0: none); the
	// cluster's watch does not overrule it meanwhile.
	sharedPending int
}

type stopWait struct {
	owner    *actor.PID
	resume   bool
	sessions int  // sessions still dropping their work
	closed   int  // sessions that did
	saved    bool // the ledger has it, or gave up answering (err)
	err      error
	// shared is true once the cluster's etcd has it, or gave up answering
	// (sharedErr), or there is no cluster, or the decision came from it.
	shared    bool
	sharedErr error
}

func newStopping() *stopping { return &stopping{waiting: map[int]*stopWait{}} }

// stopSaved is the ledger's answer to a Stop or resume write, in the mailbox.
type stopSaved struct {
	gen int
	err error
}

// stopAll acts first and persists second: the routing table refuses agents
// at once, every session drops its action and closes its tabs, and the Stop
// is written in the owner's lane, retried until it lands. The owner is
// answered when both are done.
//
// In a cluster the Stop is also written to etcd, and the owner is answered
// once etcd has committed it; a Stop that came from etcd (fromCluster) is
// only applied here.
func (a *Actor) stopAll(ctx actor.Context) { a.stopAllAs(ctx, false) }

func (a *Actor) stopAllAs(ctx actor.Context, fromCluster bool) {
	a.stop = ledger.Stop{Stopped: true, At: a.cfg.Now()}
	a.cfg.Carry.setStop(a.stop)
	a.cfg.Routes.SetStopped(true)
	a.cfg.Log.Warn("all browser access stopped by the owner")
	w := a.begin(ctx, false, len(a.sessions), fromCluster)
	a.publishStop(w)
	gen := a.stops.gen
	for _, e := range a.sessions {
		f := ctx.RequestFuture(e.pid, &messages.StopAll{}, stopAnswerWait)
		ctx.ReenterAfter(f, func(any, error) {
			if w := a.stops.waiting[gen]; w != nil {
				w.sessions--
				w.closed++
				a.settle(ctx, gen)
			}
		})
	}
	a.persistStop(ctx, gen)
	if !w.shared {
		a.persistShared(ctx, gen, a.stop)
	}
}

// resumeAll lifts the Stop at once and persists it the same way.
func (a *Actor) resumeAll(ctx actor.Context) { a.resumeAllAs(ctx, false) }

func (a *Actor) resumeAllAs(ctx actor.Context, fromCluster bool) {
	a.stop = ledger.Stop{Stopped: false, At: a.cfg.Now()}
	a.cfg.Carry.setStop(a.stop)
	a.cfg.Routes.SetStopped(a.refusing())
	a.tellSessions(ctx, &messages.ResumeAll{})
	a.cfg.Log.Info("browser access resumed by the owner")
	w := a.begin(ctx, true, 0, fromCluster)
	a.publishStop(w)
	a.persistStop(ctx, a.stops.gen)
	if !w.shared {
		a.persistShared(ctx, a.stops.gen, a.stop)
	}
}

func (a *Actor) begin(ctx actor.Context, resume bool, sessions int, fromCluster bool) *stopWait {
	a.stops.gen = a.cfg.Carry.nextGen()
	w := &stopWait{owner: ctx.Sender(), resume: resume, sessions: sessions,
		shared: fromCluster || a.cfg.Shared == nil}
	a.stops.waiting[a.stops.gen] = w
	return w
}

// persistStop writes the current Stop, retried until it lands; the outcome
// comes back to the mailbox as stopSaved.
func (a *Actor) persistStop(ctx actor.Context, gen int) {
	self, sys := ctx.Self(), ctx.ActorSystem()
	w := &ledger.Write{Owner: true, Ops: []ledger.Op{ledger.Put(ledger.StopKey(), a.stop)}}
	ledger.Persist(sys, a.cfg.Ledger, w, ledgerTimeout, func(err error) {
		sys.Root.Send(self, &stopSaved{gen: gen, err: err})
	})
}

func (a *Actor) stopSaved(ctx actor.Context, m *stopSaved) {
	w := a.stops.waiting[m.gen]
	if w == nil {
		return
	}
	w.saved, w.err = true, m.err
	if m.err != nil {
		a.cfg.Log.Error("the Stop is in force but not saved yet; retrying", "err", m.err)
	}
	a.settle(ctx, m.gen)
}

// settle answers the owner once the sessions and the ledger are done.
func (a *Actor) settle(ctx actor.Context, gen int) {
	w := a.stops.waiting[gen]
	a.publishStop(w)
	if w.sessions > 0 || !w.saved || !w.shared {
		return
	}
	delete(a.stops.waiting, gen)
	switch {
	case w.sharedErr != nil && w.resume:
		reply(ctx, w.owner, fail(messages.CodeStoreFailed.Err("Browser access is resumed on this member, but the resume", w.sharedErr.Error())))
	case w.sharedErr != nil:
		reply(ctx, w.owner, fail(messages.CodeStoreFailed.Err("All browser access is stopped on this member, but the Stop", w.sharedErr.Error())))
	case w.err != nil && w.resume:
		reply(ctx, w.owner, fail(messages.CodeStoreFailed.Err("Browser access is resumed, but this", w.err.Error()+"; buddi keeps trying to save it")))
	case w.err != nil:
		reply(ctx, w.owner, fail(messages.CodeStoreFailed.Err("All browser access is stopped now, but the Stop", w.err.Error()+"; buddi keeps trying, and the Stop holds meanwhile")))
	case w.resume:
		reply(ctx, w.owner, &messages.OwnerReply{Result: &messages.ResumeResult{Stopped: false}})
	default:
		reply(ctx, w.owner, &messages.OwnerReply{Result: &messages.StopResult{Stopped: true, Sessions: w.closed}})
	}
}

// publishStop tells subscribers where the Stop (or resume) is.
func (a *Actor) publishStop(w *stopWait) {
	a.cfg.Bus.Publish(&messages.StopChanged{Stopped: !w.resume, Settled: w.sessions == 0,
		Saved: w.saved && w.err == nil, Sessions: w.closed, At: a.cfg.Now()})
}
