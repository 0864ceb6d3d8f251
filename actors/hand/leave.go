package hand

import (
	"context"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/messages"
)

// letGoWait bounds letting go: releasing held input and stopping the
// screencast.
const letGoWait = 3 * time.Second

// leave starts letting go of the attached tab: nothing new is accepted;
// unless the page is being given back, input not yet started is dropped.
// Once the input being sent is done, release follows.
func (a *Actor) leave(ctx actor.Context, then after, why *messages.Error) {
	t := a.att
	if t == nil || t.leaving {
		return
	}
	t.leaving, t.then, t.why = true, then, why
	if then != afterGiveBack {
		t.queue = nil
	}
	a.release(ctx)
}

// release lets go once nothing is being sent: the queue (if kept) runs out
// first. Then, off the mailbox, held buttons and modifiers are released,
// the screencast stops, the page is unpinned and the tab told why; letGo
// follows and stops the pacer, which gets no frame after the screencast
// stopped.
func (a *Actor) release(ctx actor.Context) {
	t := a.att
	if t.busy || t.released {
		return
	}
	if len(t.queue) > 0 {
		a.next(ctx)
		return
	}
	t.released = true
	self, sys := ctx.Self(), ctx.ActorSystem()
	go func() {
		letGoOf(t)
		sys.Root.Send(self, &letGo{gen: t.gen})
	}()
}

// letGoOf releases what t holds, stops its screencast and gives the page
// the agent's size back, within letGoWait.
func letGoOf(t *attachment) {
	c, cancel := context.WithTimeout(context.Background(), letGoWait)
	defer cancel()
	for _, in := range heldInput(t) {
		_ = t.raw.Input(c, in)
	}
	_ = t.pin.StopCast(c)
	if t.fit != nil {
		_ = t.fit.Unfit(c) // the agent's own size again
	}
	close(t.quit)
	t.pin.Unpin()
	t.screen.End(t.why)
}

// letGo completes a leave: the tab is gone; the session hears of an end,
// the owner of a give back is answered.
func (a *Actor) letGo(ctx actor.Context, m *letGo) {
	t := a.att
	if !t.same(m.gen) {
		return
	}
	a.att = nil
	ctx.Stop(t.pacer)
	ctx.Request(ctx.Parent(), &messages.HandDriving{On: false})
	switch t.then {
	case afterEnd:
		a.ended = t.why
		ctx.Request(ctx.Parent(), &messages.HandEnded{Why: t.why}) // the session checks who sent it
		a.cfg.Log.Info("the owner's hand ended", "conversation", a.cfg.Conversation, "code", t.why.Code)
	case afterGiveBack:
		ctx.Send(a.giving, &messages.HandReleased{})
	}
	if w := a.queued; w != nil {
		a.queued = nil
		a.openFor(ctx, w.owner, w.m)
	}
}

// giveBack lets go in order and answers HandReleased once done.
func (a *Actor) giveBack(ctx actor.Context) {
	if a.giving != nil {
		return
	}
	a.giving = ctx.Sender()
	if a.opening != nil {
		return // pinned answers once the pin is back
	}
	if a.att == nil {
		ctx.Send(a.giving, &messages.HandReleased{})
		return
	}
	a.leave(ctx, afterGiveBack, &messages.Error{Code: messages.CodeHandEnded,
		Message: "You gave the page back to the agent."})
}

// stopping lets go at once, in the same order, when the hand is stopped
// with a tab attached (release, Stop, the session ending): input not yet
// started is dropped, the input being sent is waited for.
func (a *Actor) stopping() {
	for _, tm := range []*time.Timer{a.timer, a.leaseTimer} {
		if tm != nil {
			tm.Stop()
		}
	}
	t := a.att
	if t == nil || t.released {
		return // nothing attached, or its letting go already runs
	}
	t.queue = nil
	// The hand may still take messages while its pacer stops: letting go
	// again from one of them must find it done.
	t.released = true
	if t.why == nil {
		t.why = &messages.Error{Code: messages.CodeHandEnded, Message: "The session ended; the page is no longer yours to drive here."}
	}
	if t.busy {
		select {
		case <-t.running:
		case <-time.After(letGoWait):
		}
	}
	letGoOf(t)
}
