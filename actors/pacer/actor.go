package pacer

import (
	"context"
	"errors"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages/handwire"
)

// Actor paces one tab's frames.
type Actor struct {
	cfg Config

	seq      uint32
	wire     uint32             // the frame on the wire; 0: none
	wireLen  int                // its size
	waiting  *drivers.CastFrame // the newest frame not yet sent
	stall    int                // bytes made since the frame on the wire went out, it included
	made     int64              // bytes the screencast made, in all
	drawn    int64              // bytes the tab acked, in all
	window   []sample           // made and drawn at each tick of the last Window
	step     int
	over     time.Time // since when the tab is behind; zero when not
	clear    time.Time // since when it is not; zero when it is
	restarts bool      // a restart of the screencast is running
	want     int       // the step of the last (re)start
	casts    int       // (re)starts asked for, the last one's number
	portrait bool      // the steps' boxes are turned: the page is taller than wide
	w, h     int
	told     bool // the parent heard TooFarBehind
	timer    *time.Timer
	held     held // the browser's next picture, held back
	// A start that brings no picture is made again (see blank).
	startAt time.Time // when the latest start succeeded; zero while one runs
	framed  bool      // a picture came since the latest start
	blanks  int       // starts made again for want of a picture, in a row
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
		a.portrait = a.cfg.Portrait
		a.cast(ctx, 0)
		a.arm(ctx)
	case *actor.Stopping:
		if a.timer != nil {
			a.timer.Stop()
		}
		a.held.stop()
	case *actor.Stopped, *actor.Restarting:
	case *frame:
		a.frame(ctx, m.f)
	case *Ack:
		a.ack(ctx, m.Seq)
	case *tick:
		a.reconsider(ctx)
		a.blank(ctx)
		a.arm(ctx)
	case *started:
		a.started(ctx, m)
	case *Fresh:
		a.fresh(ctx, m)
	case *Refit:
		a.portrait = m.Height > m.Width
		a.cast(ctx, a.want)
	case *release:
		a.held.due = false
		a.let(ctx, false)
	case *freshEnd:
		a.freshEnd(ctx)
	default:
		actors.Unhandled(ctx, a.cfg.Log)
	}
}

// cast (re)starts the screencast at step, off the mailbox.
func (a *Actor) cast(ctx actor.Context, step int) {
	a.restarts, a.want = true, step
	a.startAt, a.framed = time.Time{}, false
	a.casts++
	gen, self, sys, pin, opts := a.casts, ctx.Self(), ctx.ActorSystem(), a.cfg.Pin, a.cfg.Steps[step]
	if a.portrait {
		opts.MaxWidth, opts.MaxHeight = opts.MaxHeight, opts.MaxWidth
	}
	sink := func(f *drivers.CastFrame) { sys.Root.Send(self, &frame{f: f}) }
	go func() {
		c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		err := pin.Cast(c, opts, sink)
		sys.Root.Send(self, &started{gen: gen, step: step, err: err})
	}()
}

// started takes the outcome of a (re)start. The failure of the latest
// one is told to the parent: the tab would otherwise show a picture that
// never changes (or none). One overtaken by a later start is not.
func (a *Actor) started(ctx actor.Context, m *started) {
	if m.gen != a.casts {
		return // a later start runs, or ran: its outcome is the one that counts
	}
	a.restarts = false
	if m.err != nil {
		a.cfg.Log.Warn("the hand's screencast did not start", "err", m.err)
		a.tell(ctx, &CastFailed{Err: m.err})
		return
	}
	a.startAt = a.cfg.Now()
	if a.step != m.step {
		a.step = m.step
		a.tell(ctx, &Stepped{Step: m.step})
	}
}

// blank starts the screencast again when a start that succeeded brought
// no picture within Blank: Chromium sends one at every start, but a
// screencast started as the page arrives from another site sometimes
// never sends any (on a phone here, 1 of 48 take-overs while the agent
// went between two sites said Connecting… for 20 s, with no error
// anywhere). After MaxBlanks starts in a row without one, the parent is
// told the screencast failed, as when a start fails: the tab says so
// rather than wait for a picture that does not come.
func (a *Actor) blank(ctx actor.Context) {
	if a.restarts || a.framed || a.startAt.IsZero() || a.cfg.Now().Sub(a.startAt) < a.cfg.Blank {
		return
	}
	if a.blanks >= a.cfg.MaxBlanks {
		a.startAt = time.Time{} // told once
		a.cfg.Log.Warn("the hand's screencast brought no picture", "starts", a.blanks+1)
		a.tell(ctx, &CastFailed{Err: errNoPicture})
		return
	}
	a.blanks++
	a.cfg.Log.Info("the hand's screencast brought no picture; starting it again", "try", a.blanks)
	a.cast(ctx, a.want)
}

func (a *Actor) arm(ctx actor.Context) {
	self, sys := ctx.Self(), ctx.ActorSystem()
	a.timer = time.AfterFunc(a.cfg.Tick, func() { sys.Root.Send(self, &tick{}) })
}

// frame sends f if the wire is free, else keeps it as the one waiting; a
// picture made before a press or a key the owner waits to see is set
// aside, and the browser is let make the next at once (the one the owner
// waits for). Otherwise the browser makes its next picture once the
// pacer's rate allows.
func (a *Actor) frame(ctx actor.Context, f *drivers.CastFrame) {
	a.framed, a.blanks = true, 0
	a.hold(f.Release)
	if a.stale(f) {
		a.let(ctx, true)
		return
	}
	defer a.let(ctx, false)
	a.held.stash = nil
	if w, h := int(f.Header.PageWidth), int(f.Header.PageHeight); w != a.w || h != a.h {
		a.w, a.h = w, h
		a.tell(ctx, &PageSize{Width: w, Height: h})
		if tall := h > w; tall != a.portrait {
			a.portrait = tall
			a.cast(ctx, a.want)
		}
	}
	a.stall += len(f.JPEG)
	a.made += int64(len(f.JPEG))
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
	a.wire, a.wireLen = a.seq, len(f.JPEG)
	a.cfg.Screen.Frame(handwire.EncodeFrame(h, f.JPEG))
}

// ack frees the wire; the waiting frame, if any, goes at once.
func (a *Actor) ack(ctx actor.Context, seq uint32) {
	if seq == 0 || seq != a.wire {
		return
	}
	a.wire = 0
	a.drawn += int64(a.wireLen)
	a.stall = 0
	if f := a.waiting; f != nil {
		a.waiting = nil
		a.stall = len(f.JPEG)
		a.send(f)
	}
	a.reconsider(ctx)
}

// sample is the byte counts at one tick.
type sample struct {
	at          time.Time
	made, drawn int64
}

// behind is how many more bytes the screencast made than the tab drew over
// the last Window: what a sender of every frame would have queued for it.
func (a *Actor) behind(now time.Time) int {
	a.window = append(a.window, sample{at: now, made: a.made, drawn: a.drawn})
	for len(a.window) > 2 && now.Sub(a.window[1].at) >= a.cfg.Window {
		a.window = a.window[1:]
	}
	first := a.window[0]
	return int((a.made - first.made) - (a.drawn - first.drawn))
}

// reconsider steps quality down once the tab has been more than
// StepBehind behind for StepAfter, back up once it has not for
// ClearAfter, and tells the parent when the tab stalls MaxBehind behind
// (the page made that much since the frame on the wire went out).
func (a *Actor) reconsider(ctx actor.Context) {
	now := a.cfg.Now()
	if a.stall >= a.cfg.MaxBehind && !a.told {
		a.told = true
		a.tell(ctx, &TooFarBehind{Bytes: a.stall})
	}
	if _, isTick := ctx.Message().(*tick); !isTick {
		return // the window moves with the clock
	}
	if a.behind(now) > a.cfg.StepBehind {
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
	if a.restarts || len(a.cfg.Steps) < 2 {
		return
	}
	switch {
	case a.step == 0 && !a.over.IsZero() && now.Sub(a.over) >= a.cfg.StepAfter:
		a.over = now
		a.cast(ctx, 1)
	case a.step == 1 && !a.clear.IsZero() && now.Sub(a.clear) >= a.cfg.ClearAfter:
		a.clear = now
		a.cast(ctx, 0)
	}
}

// errNoPicture is why a screencast that started brought no picture failed.
var errNoPicture = errors.New("the screencast started and sent no picture")

// tell sends msg to the pacer's parent, the hand (a pacer spawned at the
// root, in tests and benchmarks, has none).
func (a *Actor) tell(ctx actor.Context, msg any) {
	if p := ctx.Parent(); p != nil {
		ctx.Send(p, msg)
	}
}
