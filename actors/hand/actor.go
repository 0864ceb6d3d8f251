package hand

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors"
	"github.com/buddi-dev/buddi/actors/pacer"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// Actor is one take-over's hand.
type Actor struct {
	cfg   Config
	gen   int
	att   *attachment // the tab driving, or nil
	born  time.Time
	timer *time.Timer
	// leaseTimer is the sign-in check scheduled after input, if any.
	leaseTimer *time.Timer

	opening  *actor.PID          // who asked to attach, while the page is pinned
	screen   messages.HandScreen // the tab of that attachment
	portrait bool                // its touch screen is taller than wide
	queued   *waiting            // a tab waiting for the attachment it replaces to let go
	giving   *actor.PID          // who asked to give back, once asked
	ended    *messages.Error
}

// mailboxSize bounds the hand's mailbox: a tab flooding input waits (its
// socket stops being read) rather than growing it.
const mailboxSize = 1024

// Props returns a hand's props.
func Props(cfg Config) *actor.Props {
	cfg = cfg.withDefaults()
	return actor.PropsFromProducer(func() actor.Actor { return &Actor{cfg: cfg} },
		actor.WithMailbox(actor.Bounded(mailboxSize)))
}

// Receive handles the surface's messages, the session's give back, the
// pacer's reports, and what the hand's goroutines and timers bring back.
func (a *Actor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		a.born = a.cfg.Now()
		a.arm(ctx)
	case *actor.Stopping:
		a.stopping()
	case *actor.Stopped, *actor.Restarting, *actor.Terminated:
	case *messages.HandOpen:
		a.open(ctx, m)
	case *pinned:
		a.pinned(ctx, m)
	case *messages.GiveBack:
		a.giveBack(ctx)
	case *letGo:
		a.letGo(ctx, m)
	case *tick:
		a.limits(ctx)
		a.keepFit(ctx)
		a.arm(ctx)
	default:
		if !a.attached(ctx) {
			actors.Unhandled(ctx, a.cfg.Log)
		}
	}
}

// attached handles the messages of an attached tab; stale ones (of a tab
// that left, or of one letting go) are dropped. False for a message it
// does not know.
func (a *Actor) attached(ctx actor.Context) bool {
	msg, ok := ctx.Message().(tagged)
	if !ok {
		return a.fromPacer(ctx)
	}
	t := a.att
	if m, ok := msg.(*inputDone); ok {
		if t.same(m.gen) { // also while letting go: it waits for this
			a.inputDone(ctx, m)
		}
		return true
	}
	if !t.is(msg.tag()) {
		return true
	}
	switch m := msg.(type) {
	case *input:
		a.input(ctx, m.in)
	case *pong:
		t.pings = 0
	case *detach:
		if m.why != nil {
			a.leave(ctx, afterEnd, m.why)
		} else {
			a.leave(ctx, afterDetach, &messages.Error{Code: messages.CodeHandEnded, Message: "The tab closed."})
		}
	case *leased:
		a.leased(ctx, m)
	case *leaseDue:
		a.checkLease(ctx)
	case *pinGone:
		a.leave(ctx, afterEnd, t.pin.Why())
	}
	return true
}

// fromPacer handles the pacer's reports; false for a message it does not know.
func (a *Actor) fromPacer(ctx actor.Context) bool {
	t := a.att
	switch m := ctx.Message().(type) {
	case *pacer.PageSize:
		if t != nil {
			t.w, t.h = m.Width, m.Height
		}
	case *pacer.TooFarBehind:
		if t != nil {
			a.leave(ctx, afterEnd, &messages.Error{Code: messages.CodeHandEnded,
				Message: "This tab fell too far behind the page (two megabytes of pictures); take over again on a better connection."})
		}
	case *pacer.CastFailed:
		if t != nil {
			a.leave(ctx, afterEnd, castFailed(t.pin))
		}
	case *pacer.Stepped:
		if t != nil {
			a.cfg.Log.Debug("the hand's picture changed quality", "conversation", a.cfg.Conversation, "step", m.Step)
		}
	default:
		return false
	}
	return true
}

// castFailed is why a hand whose screencast did not start ends: its page's
// own end when the page went as the screencast started (a start on a page
// already gone fails at once), else that the picture could not start.
func castFailed(pin drivers.Pinned) *messages.Error {
	select {
	case <-pin.Gone():
		if why := pin.Why(); why != nil {
			return why
		}
	default:
	}
	return &messages.Error{Code: messages.CodeHandEnded, Message: "The page's picture could not be started; take over again."}
}

func (a *Actor) arm(ctx actor.Context) {
	self, sys := ctx.Self(), ctx.ActorSystem()
	a.timer = time.AfterFunc(a.cfg.Limits.Tick, func() { sys.Root.Send(self, &tick{}) })
}
