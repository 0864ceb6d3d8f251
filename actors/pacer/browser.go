package pacer

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/drivers"
)

// held is the browser's side of the pacing: a browser that holds its next
// picture until told (the agents' Chromium) makes one no sooner than Gap
// after the last, and at once after the owner's input, so the pictures
// between two the tab can draw are never made at all, and an input's
// answer is never behind a queue of them.
type held struct {
	next  func()    // lets the browser make its next picture; nil when let
	at    time.Time // when the browser was last let
	due   bool      // a release is scheduled
	timer *time.Timer
	// Pictures made before before are dropped until until (Fresh.Drop).
	before float64 // ms since the epoch, as the frames' TimeMs
	until  time.Time
	// stash is the newest picture set aside (dropped so, or waiting when
	// an input came), sent at freshEnd unless a newer one came.
	stash      *drivers.CastFrame
	endDue     bool // a freshEnd is scheduled
	freshTimer *time.Timer
}

// hold keeps the release of the newest picture; an older one still held
// (a screencast restarted) is let go.
func (a *Actor) hold(next func()) {
	if a.held.next != nil {
		a.held.next()
	}
	a.held.next = next
}

// let lets the browser make its next picture now when the pacer's rate
// allows it (or now is true), else schedules it.
func (a *Actor) let(ctx actor.Context, now bool) {
	h := &a.held
	if h.next == nil {
		return
	}
	wait := a.cfg.Gap - a.cfg.Now().Sub(h.at)
	if now || wait <= 0 {
		h.next()
		h.next, h.at = nil, a.cfg.Now()
		return
	}
	if !h.due {
		h.due = true
		self, sys := ctx.Self(), ctx.ActorSystem()
		h.timer = time.AfterFunc(wait, func() { sys.Root.Send(self, &release{}) })
	}
}

// fresh sets aside the picture waiting when the page made it before the
// input, and asks the browser for the next at once. A picture set aside
// goes to the tab after all when the page made no newer one by FreshFor
// after the input: a wheel step's scroll can be drawn before the page
// answers the step, and the owner must see where the page stopped.
func (a *Actor) fresh(ctx actor.Context, m *Fresh) {
	ms := float64(m.At.UnixMicro()) / 1000
	if f := a.waiting; f != nil && f.Header.TimeMs < ms {
		a.waiting = nil
		a.aside(f)
	}
	if m.Drop && !a.cfg.Now().Before(a.held.until) {
		// The first of a burst (a press and its release, a word typed)
		// draws the line: a picture after it may show them all.
		a.held.before, a.held.until = ms, a.cfg.Now().Add(a.cfg.FreshFor)
		a.endFresh(ctx)
	} else if a.held.stash != nil && !a.held.endDue {
		a.endFresh(ctx)
	}
	a.let(ctx, true)
}

// aside keeps f as the picture to send when no newer one comes.
func (a *Actor) aside(f *drivers.CastFrame) {
	if s := a.held.stash; s == nil || s.Header.TimeMs <= f.Header.TimeMs {
		a.held.stash = f
	}
}

// endFresh schedules freshEnd FreshFor from now.
func (a *Actor) endFresh(ctx actor.Context) {
	a.held.endDue = true
	self, sys := ctx.Self(), ctx.ActorSystem()
	a.held.freshTimer = time.AfterFunc(a.cfg.FreshFor, func() { sys.Root.Send(self, &freshEnd{}) })
}

// stale keeps f aside when the page made it before a press or a key whose
// effect the owner is waiting to see: a newer picture replaces it, and
// when none came by the end of FreshFor it is sent after all (a press
// that changed nothing on a page that changes nothing else).
func (a *Actor) stale(f *drivers.CastFrame) bool {
	if f.Header.TimeMs >= a.held.before || !a.cfg.Now().Before(a.held.until) {
		return false
	}
	a.aside(f)
	return true
}

// freshEnd sends the picture kept aside, if no newer one came, once no
// press's time of dropping runs (its own end comes then).
func (a *Actor) freshEnd(ctx actor.Context) {
	a.held.endDue = false
	if a.cfg.Now().Before(a.held.until) {
		return
	}
	f := a.held.stash
	a.held.stash = nil
	if f == nil {
		return
	}
	a.held.before = 0
	a.frame(ctx, &drivers.CastFrame{JPEG: f.JPEG, Header: f.Header})
}

func (h *held) stop() {
	for _, t := range []*time.Timer{h.timer, h.freshTimer} {
		if t != nil {
			t.Stop()
		}
	}
}
