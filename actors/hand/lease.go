package hand

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/messages"
)

// limits ends the hand past its lifetime, when idle, when the tab stopped
// answering pings; it pings, and checks the sign-in at least every
// LeaseEvery.
func (a *Actor) limits(ctx actor.Context) {
	t := a.att
	if t == nil || t.leaving {
		return
	}
	now, l := a.cfg.Now(), a.cfg.Limits
	switch {
	case now.Sub(a.born) >= l.MaxLife:
		a.leave(ctx, afterEnd, &messages.Error{Code: messages.CodeHandEnded,
			Message: "You have driven this page for two hours, the most one take-over allows; take over again to go on."})
	case now.Sub(t.lastIn) >= l.Idle:
		a.leave(ctx, afterEnd, &messages.Error{Code: messages.CodeHandEnded,
			Message: "Nothing was done on this page for ten minutes, so the hand let go; take over again to go on."})
	case t.pings >= 2 && now.Sub(t.pingAt) >= l.PingEvery:
		a.leave(ctx, afterEnd, &messages.Error{Code: messages.CodeHandEnded,
			Message: "This tab stopped answering; take over again when the connection is back."})
	default:
		if now.Sub(t.pingAt) >= l.PingEvery {
			t.pings++
			t.pingAt = now
			t.screen.Ping()
		}
		if now.Sub(t.leaseAt) >= l.LeaseEvery {
			a.checkLease(ctx)
		}
	}
}

// leaseSoon schedules a sign-in check at most LeaseAfter from now.
func (a *Actor) leaseSoon(ctx actor.Context) {
	t := a.att
	if t.due {
		t.again = true // the check under way may have started before this input
		return
	}
	t.due = true
	wait := max(a.cfg.Limits.LeaseAfter-a.cfg.Now().Sub(t.leaseAt), 0)
	self, sys, gen := ctx.Self(), ctx.ActorSystem(), t.gen
	a.leaseTimer = time.AfterFunc(wait, func() { sys.Root.Send(self, &leaseDue{gen: gen}) })
}

// checkLease checks the tab's sign-in off the mailbox.
func (a *Actor) checkLease(ctx actor.Context) {
	t := a.att
	t.due = true
	t.leaseAt = a.cfg.Now()
	self, sys, gen, screen := ctx.Self(), ctx.ActorSystem(), t.gen, t.screen
	go func() { sys.Root.Send(self, &leased{gen: gen, fail: screen.Check()}) }()
}

// leased ends the hand at once when the sign-in no longer holds.
func (a *Actor) leased(ctx actor.Context, m *leased) {
	t := a.att
	t.due = false
	if m.fail != nil {
		a.leave(ctx, afterEnd, m.fail)
		return
	}
	if t.again {
		t.again = false
		a.leaseSoon(ctx)
	}
}
