package hand

import (
	"context"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/pacer"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/handwire"
)

// input takes one message of the tab: an ack goes to the pacer; anything
// else is checked and queued in order. A move replaces a move still
// waiting behind it in the queue; nothing else is ever replaced or merged.
func (a *Actor) input(ctx actor.Context, in *handwire.Input) {
	t := a.att
	switch in.Kind {
	case handwire.Ack:
		ctx.Send(t.pacer, &pacer.Ack{Seq: in.Seq})
		return
	case handwire.CSRF, handwire.Give:
		return // the surface's own: checked, or turned into a resume
	case handwire.View:
		if t.fit == nil {
			// The tab attached before it knew its screen (the hand began in a
			// panel that was closed): its first size lays the page out now.
			f, ok := drivers.FitterOf(t.pin)
			if !ok {
				return // a page that cannot be laid out is driven at the agent's size
			}
			t.fit = f
		}
	}
	if in.Pointer() && (t.w == 0 || !in.Within(t.w, t.h)) {
		return // off the picture, or before there is one: never forwarded
	}
	t.lastIn = a.cfg.Now()
	a.leaseSoon(ctx)
	if n := len(t.queue); n > 0 && in.Kind == handwire.Move && t.queue[n-1].Kind == handwire.Move {
		t.queue[n-1] = in
	} else {
		t.queue = append(t.queue, in)
	}
	if in.Pointer() {
		t.x, t.y = in.X, in.Y
	}
	a.hold(in)
	a.next(ctx)
}

// hold tracks the buttons and modifiers the queued input leaves held.
func (a *Actor) hold(in *handwire.Input) {
	t := a.att
	switch in.Kind {
	case handwire.Down:
		t.buttons[in.Button] = true
	case handwire.Up:
		delete(t.buttons, in.Button)
	case handwire.KeyDown:
		if handwire.Modifiers[in.Key] {
			t.keys[in.Key] = true
		}
	case handwire.KeyUp:
		delete(t.keys, in.Key)
	}
}

// next sends the first queued input, off the mailbox, unless one is being sent.
func (a *Actor) next(ctx actor.Context) {
	t := a.att
	if t.busy || len(t.queue) == 0 {
		return
	}
	in := t.queue[0]
	t.queue[0] = nil
	t.queue = t.queue[1:]
	if in == t.refit {
		// The size laid out last, which a View of the owner's sent while
		// this one waited may have changed.
		in.W, in.H, t.refit = t.fw, t.fh, nil
	}
	t.busy = true
	t.running = make(chan struct{})
	gen, raw, fit, running, wait := t.gen, t.raw, t.fit, t.running, a.cfg.Limits.InputWait
	self, sys := ctx.Self(), ctx.ActorSystem()
	go func() {
		defer close(running)
		c, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		var fail *messages.Error
		if err := send(c, raw, fit, in); err != nil {
			// The error is reduced to its code: a driver's sentence about
			// a typed key could carry the key.
			fail = &messages.Error{Code: coded(err, "").Code}
		}
		sys.Root.Send(self, &inputDone{gen: gen, fail: fail, kind: in.Kind, w: in.W, h: in.H, at: time.Now()})
	}()
}

// send passes in to the page: a new screen size lays it out again.
func send(c context.Context, raw drivers.RawInput, fit drivers.Fitter, in *handwire.Input) error {
	if in.Kind == handwire.View {
		return fit.Fit(c, in.W, in.H)
	}
	return raw.Input(c, in)
}

// inputDone sends the next input, or lets go when the tab is leaving and
// nothing is left to send.
func (a *Actor) inputDone(ctx actor.Context, m *inputDone) {
	t := a.att
	t.busy = false
	if m.fail != nil {
		// A lost pointer move is made good by the next; a lost tap, key or
		// wheel step is something the owner did that the page never saw.
		level := slog.LevelWarn
		if m.kind == handwire.Move {
			level = slog.LevelDebug
		}
		a.cfg.Log.Log(context.Background(), level, "an input of the hand failed", "conversation", a.cfg.Conversation, "input", string(m.kind), "code", m.fail.Code)
	} else if m.kind == handwire.View {
		t.fw, t.fh, t.off = m.w, m.h, time.Time{}
		ctx.Send(t.pacer, &pacer.Refit{Width: m.w, Height: m.h})
	} else if m.kind != handwire.Move {
		// The owner waits to see what the input did: the picture after it
		// goes before any made earlier.
		ctx.Send(t.pacer, &pacer.Fresh{At: m.at, Drop: m.kind != handwire.Wheel})
	}
	if t.leaving {
		a.release(ctx)
		return
	}
	a.next(ctx)
}

// heldInput is what lets go of what t holds: each button up, each modifier up.
func heldInput(t *attachment) []*handwire.Input {
	var out []*handwire.Input
	for b := range t.buttons {
		out = append(out, &handwire.Input{Kind: handwire.Up, Button: b, X: t.x, Y: t.y})
	}
	for k := range t.keys {
		out = append(out, &handwire.Input{Kind: handwire.KeyUp, Key: k})
	}
	return out
}

// maxRefits bounds the layouts keepFit makes again while the pictures
// keep another size: a page that never takes the size is driven as it is.
const maxRefits = 3

// keepFit lays the page out again for the tab's screen when its pictures
// have said another size for RefitAfter. Now and then the page's pictures
// keep its old size after a layout that Fit saw the page take: on a phone
// here, 13 of 32 take-overs made while the agent went between two sites
// on a busy machine had pictures of the page at 1280×720, shrunk to the
// phone's width, and one at the size between (375×734); one layout more
// gave each the phone's size. The layout goes through the queue, in order
// with the owner's input, as a View of the size last laid out when it is
// sent (the phone may turn while it waits).
func (a *Actor) keepFit(ctx actor.Context) {
	t := a.att
	if t == nil || t.leaving || t.fit == nil || t.fw == 0 || t.w == 0 {
		return
	}
	now := a.cfg.Now()
	switch {
	case t.w == t.fw && t.h == t.fh:
		t.off, t.refits = time.Time{}, 0
	case t.off.IsZero():
		t.off = now
	case now.Sub(t.off) >= a.cfg.Limits.RefitAfter && t.refits < maxRefits && !viewQueued(t.queue):
		t.off = now
		t.refits++
		a.cfg.Log.Info("the page's pictures kept another size than the owner's screen; laying it out again",
			"conversation", a.cfg.Conversation, "pictured", [2]int{t.w, t.h}, "screen", [2]int{t.fw, t.fh}, "try", t.refits)
		t.refit = &handwire.Input{Kind: handwire.View}
		t.queue = append(t.queue, t.refit)
		a.next(ctx)
	}
}

// viewQueued says whether q holds a new screen size still to be laid out.
func viewQueued(q []*handwire.Input) bool {
	for _, in := range q {
		if in.Kind == handwire.View {
			return true
		}
	}
	return false
}
