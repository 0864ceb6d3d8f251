package stop

import (
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/messages"
)

// Waits of the owner's answer.
const (
	// saveWait is how long the owner waits for the ledger (and etcd) before
	// the answer says the decision is in force but not durable yet.
	saveWait = 10 * time.Second
	// settleWait is how long the owner waits at most: the follower did not
	// say the sessions dropped their work (it was restarting, or is gone).
	settleWait = 20 * time.Second
)

// waiter is an owner waiting for decision gen.
type waiter struct {
	owner  *actor.PID
	gen    uint64
	resume bool
	late   bool // past saveWait: answered as soon as the sessions settle
}

// due is a waiter's deadline, in the mailbox.
type due struct {
	gen   uint64
	final bool // settleWait, else saveWait
}

// wait keeps the sender of the decision just made until it can be
// answered, with its deadlines.
func (a *Actor) wait(ctx actor.Context, resume bool) {
	if ctx.Sender() == nil {
		return
	}
	gen, self, root := a.cur.Gen, ctx.Self(), ctx.ActorSystem().Root
	a.waiting = append(a.waiting, &waiter{owner: ctx.Sender(), gen: gen, resume: resume})
	time.AfterFunc(saveWait, func() { root.Send(self, &due{gen: gen}) })
	time.AfterFunc(settleWait, func() { root.Send(self, &due{gen: gen, final: true}) })
	a.progress(ctx)
}

func (a *Actor) due(ctx actor.Context, m *due) {
	for _, w := range a.waiting {
		if w.gen == m.gen {
			w.late = true
			if m.final {
				a.settled = max(a.settled, m.gen) // answered with what is known
			}
		}
	}
	a.progress(ctx)
}

// progress answers every owner whose decision is done, or late and
// settled.
func (a *Actor) progress(ctx actor.Context) {
	kept := a.waiting[:0]
	for _, w := range a.waiting {
		settled := a.settled >= w.gen || w.resume
		durable := a.saved >= w.gen && (a.cfg.Shared == nil || a.shared >= w.gen)
		switch {
		case settled && durable:
			ctx.Send(w.owner, a.done(w))
		case settled && w.late:
			ctx.Send(w.owner, a.notDurable(w))
		default:
			kept = append(kept, w)
		}
	}
	a.waiting = kept
}

func (a *Actor) done(w *waiter) *messages.OwnerReply {
	if w.resume {
		return &messages.OwnerReply{Result: &messages.ResumeResult{Stopped: false}}
	}
	return &messages.OwnerReply{Result: &messages.StopResult{Stopped: true, Sessions: a.closed}}
}

// notDurable says the decision holds here but the ledger or etcd has not
// taken it yet, and that the writer keeps trying.
func (a *Actor) notDurable(w *waiter) *messages.OwnerReply {
	why := "it did not answer in time"
	if a.lastErr != nil {
		why = a.lastErr.Error()
	}
	what := "All browser access is stopped now, but the Stop"
	if w.resume {
		what = "Browser access is resumed, but this"
	}
	if a.saved >= w.gen {
		why = fmt.Sprintf("the cluster's etcd has not taken it yet (%s); buddi keeps trying, and this member holds it meanwhile", why)
		if w.resume {
			what = "Browser access is resumed on this member, but the resume"
		} else {
			what = "All browser access is stopped on this member, but the Stop"
		}
	} else {
		why += "; buddi keeps trying"
		if !w.resume {
			why += ", and the Stop holds meanwhile"
		}
	}
	return messages.OwnerFail(messages.CodeStoreFailed.Err(what, why))
}
