package pacer

import (
	"context"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// Actor paces one tab's frames.
type Actor struct {
	cfg Config

	seq      uint32
	wire     uint32             // the frame on the wire; 0: none
	waiting  *drivers.CastFrame // the newest frame not yet sent
	behind   int                // bytes a send-everything sender would have queued
	step     int
	over     time.Time // since when behind > StepBehind; zero when not
	clear    time.Time // since when behind ≤ StepBehind; zero when not
	restarts bool      // a restart of the screencast is running
	w, h     int
	told     bool // the parent heard TooFarBehind
	timer    *time.Timer
}

// Props returns a pacer's props.
func Props(cfg Config) *actor.Props {
	cfg = cfg.withDefaults()
	return actor.PropsFromProducer(func() actor.Actor { return &Actor{cfg: cfg} })
}

// Receive handles frames, acks, the timer and the screencast's start.
func (a *Actor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		a.clear = a.cfg.Now()
		a.cast(ctx, 0)
		a.arm(ctx)
	case *actor.Stopping:
		if a.timer != nil {
			a.timer.Stop()
		}
	case *actor.Stopped, *actor.Restarting:
	case *frame:
		a.frame(ctx, m.f)
	case *Ack:
		a.ack(ctx, m.Seq)
	case *tick:
		a.reconsider(ctx)
		a.arm(ctx)
	case *started:
		a.started(ctx, m)
	default:
		actors.Unhandled(ctx, a.cfg.Log)
	}
}

// cast (re)starts the screencast at step, off the mailbox.
func (a *Actor) cast(ctx actor.Context, step int) {
	a.restarts = true
	self, sys, pin := ctx.Self(), ctx.ActorSystem(), a.cfg.Pin
	sink := func(f *drivers.CastFrame) { sys.Root.Send(self, &frame{f: f}) }
	go func() {
		c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		err := pin.Cast(c, Steps[step], sink)
		sys.Root.Send(self, &started{step: step, err: err})
	}()
}

func (a *Actor) started(ctx actor.Context, m *started) {
	a.restarts = false
	if m.err != nil {
		a.cfg.Log.Warn("the hand's screencast did not start", "err", m.err)
		return
	}
	if a.step != m.step {
		a.step = m.step
		ctx.Send(ctx.Parent(), &Stepped{Step: m.step})
	}
}

func (a *Actor) arm(ctx actor.Context) {
	self, sys := ctx.Self(), ctx.ActorSystem()
	a.timer = time.AfterFunc(a.cfg.Tick, func() { sys.Root.Send(self, &tick{}) })
}

// frame sends f if the wire is free, else keeps it as the one waiting.
func (a *Actor) frame(ctx actor.Context, f *drivers.CastFrame) {
	if w, h := int(f.Header.PageWidth), int(f.Header.PageHeight); w != a.w || h != a.h {
		a.w, a.h = w, h
		ctx.Send(ctx.Parent(), &PageSize{Width: w, Height: h})
	}
	a.behind += len(f.JPEG)
	if a.wire == 0 {
		a.send(f)
	} else {
		a.waiting = f
	}
	a.reconsider(ctx)
}

func (a *Actor) send(f *drivers.CastFrame) {
	a.seq++
	if a.seq == 0 {
		a.seq = 1
	}
	h := f.Header
	h.Seq, h.Step = a.seq, uint8(a.step)
	a.wire = a.seq
	a.cfg.Screen.Frame(messages.EncodeHandFrame(h, f.JPEG))
}

// ack frees the wire; the waiting frame, if any, goes at once.
func (a *Actor) ack(ctx actor.Context, seq uint32) {
	if seq == 0 || seq != a.wire {
		return
	}
	a.wire = 0
	a.behind = 0
	if f := a.waiting; f != nil {
		a.waiting = nil
		a.behind = len(f.JPEG)
		a.send(f)
	}
	a.reconsider(ctx)
}

// reconsider steps quality down after StepAfter over StepBehind, back up
// after ClearAfter at or under it, and tells the parent when the tab is
// MaxBehind behind.
func (a *Actor) reconsider(ctx actor.Context) {
	now := a.cfg.Now()
	if a.behind > a.cfg.StepBehind {
		a.clear = time.Time{}
		if a.over.IsZero() {
			a.over = now
		}
	} else {
		a.over = time.Time{}
		if a.clear.IsZero() {
			a.clear = now
		}
	}
	if a.behind >= a.cfg.MaxBehind && !a.told {
		a.told = true
		ctx.Send(ctx.Parent(), &TooFarBehind{Bytes: a.behind})
	}
	if a.restarts {
		return
	}
	switch {
	case a.step == 0 && !a.over.IsZero() && now.Sub(a.over) >= a.cfg.StepAfter:
		a.cast(ctx, 1)
	case a.step == 1 && !a.clear.IsZero() && now.Sub(a.clear) >= a.cfg.ClearAfter:
		a.cast(ctx, 0)
	}
}
