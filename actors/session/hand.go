package session

import (
	"context"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// handWait bounds how long a hand-back waits for the hand to let go.
const handWait = 5 * time.Second

// handTimeout is the timer message of a hand-back that waited too long.
type handTimeout struct{ hand *actor.PID }

// hand starts the take-over's hand as a child, when the session has one to
// start; a take-over that already has a hand keeps it.
func (a *Actor) hand(ctx actor.Context) *actor.PID {
	if t, ok := a.st.(*takenOver); ok && t.hand != nil {
		return t.hand
	}
	if a.cfg.Hand == nil {
		return nil
	}
	tabs, drv, conv, key := a.tabs, a.cfg.Driver, a.cfg.Conversation, a.cfg.Tabs
	open := func(c context.Context) (drivers.Tabs, error) {
		if tabs != nil {
			return tabs, nil
		}
		return drv.Open(c, key) // the same tabs the session opens on its next call
	}
	return ctx.Spawn(a.cfg.Hand(conv, open))
}

// handBack asks the hand to let go: it stops taking input, drains what it
// accepted, releases held keys and buttons, and answers HandReleased. Only
// then does the session hand the page back.
func (a *Actor) handBack(ctx actor.Context, hand *actor.PID) {
	a.become(&handingBack{hand: hand, owner: ctx.Sender()})
	ctx.Request(hand, &messages.GiveBack{})
	self, sys := ctx.Self(), ctx.ActorSystem()
	time.AfterFunc(handWait, func() { sys.Root.Send(self, &handTimeout{hand: hand}) })
}

// handReleased completes the hand-back the hand answered.
func (a *Actor) handReleased(ctx actor.Context) {
	h, ok := a.st.(*handingBack)
	if !ok {
		return // late: the hand-back already completed or was abandoned
	}
	ctx.Stop(h.hand)
	a.resumed(ctx, h.owner)
}

// handTimedOut completes a hand-back whose hand did not answer in time.
func (a *Actor) handTimedOut(ctx actor.Context, m *handTimeout) {
	h, ok := a.st.(*handingBack)
	if !ok || !h.hand.Equal(m.hand) {
		return
	}
	a.cfg.Log.Warn("the hand did not let go in time; handing back anyway", "conversation", a.cfg.Conversation)
	ctx.Stop(h.hand)
	a.resumed(ctx, h.owner)
}

// letGoOfHand stops the hand of a session that ends or stops while taken
// over, and answers an owner waiting on a hand-back. The hand lets go as it
// stops (what it holds released, its screencast stopped); the future is
// done once it has, so the tabs close only after.
func (a *Actor) letGoOfHand(ctx actor.Context) *actor.Future {
	switch s := a.st.(type) {
	case *takenOver:
		if s.hand != nil {
			h := s.hand
			s.hand = nil
			return ctx.StopFuture(h)
		}
	case *handingBack:
		ctx.Send(s.owner, messages.OwnerFail(&messages.Error{Code: messages.CodeNoSession,
			Message: "The session ended while it was being handed back."}))
		return ctx.StopFuture(s.hand)
	}
	return nil
}

// waitFor waits for a hand's stop (f may be nil), off the mailbox.
func waitFor(f *actor.Future) {
	if f != nil {
		_ = f.Wait()
	}
}

// handOpen passes a dashboard tab's request to drive the page to the
// take-over's hand.
func (a *Actor) handOpen(ctx actor.Context) {
	switch s := a.st.(type) {
	case *takenOver:
		if s.hand != nil {
			ctx.Forward(s.hand)
			return
		}
		ctx.Respond(messages.OwnerFail(&messages.Error{Code: messages.CodeNoHand,
			Message: "The hand on this page ended; take over again to drive it."}))
	default:
		ctx.Respond(messages.OwnerFail(&messages.Error{Code: messages.CodeNoHand,
			Message: "The agent has this page; take over first to drive it."}))
	}
}

// handDriving shows whether a dashboard tab drives the take-over's hand.
func (a *Actor) handDriving(ctx actor.Context, m *messages.HandDriving) {
	if s, ok := a.st.(*takenOver); ok && s.hand != nil && s.hand.Equal(ctx.Sender()) && s.driving != m.On {
		s.driving = m.On
		a.show()
	}
}

// handEnded keeps the take-over without the hand that ended on its own.
func (a *Actor) handEnded(ctx actor.Context) {
	if s, ok := a.st.(*takenOver); ok && s.hand != nil && s.hand.Equal(ctx.Sender()) {
		ctx.Stop(s.hand)
		s.hand, s.driving = nil, false
		a.show()
	}
}
