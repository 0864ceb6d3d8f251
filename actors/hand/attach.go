package hand

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/pacer"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/handwire"
)

// What happens once an attachment has let go.
type after int

const (
	afterDetach   after = iota // the tab left: another may attach
	afterEnd                   // the hand ended: the owner takes over again
	afterGiveBack              // given back: answer HandReleased
)

// attachment is the one tab driving the page, and the page pinned for it.
type attachment struct {
	gen     int
	id      string        // the tab sends it back to reconnect
	quit    chan struct{} // closed as it lets go
	screen  messages.HandScreen
	pin     drivers.Pinned
	raw     drivers.RawInput
	pacer   *actor.PID
	since   time.Time
	lastIn  time.Time // the last input, or since
	leaseAt time.Time // the last sign-in check's start
	due     bool      // a sign-in check is scheduled or running
	again   bool      // input came while it ran: check once more
	pings   int       // pings sent and not answered
	pingAt  time.Time
	w, h    int     // the page's size, from its last picture
	x, y    float64 // the pointer's last position

	queue   []*handwire.Input
	busy    bool
	running chan struct{} // closed when the input being sent is done
	buttons map[string]bool
	keys    map[string]bool

	leaving  bool
	released bool // letting go runs (or ran)
	then     after
	why      *messages.Error

	fit    drivers.Fitter  // the page laid out for the tab's touch screen, or nil
	fw, fh int             // the size it was laid out at last
	off    time.Time       // since when the pictures say another size; zero when they do not
	refits int             // layouts made again since the pictures last said fw×fh
	refit  *handwire.Input // keepFit's layout, while it waits in the queue
}

// is says whether gen is the attachment's and it still takes input.
func (t *attachment) is(gen int) bool { return t.same(gen) && !t.leaving }

// same says whether gen is the attachment's.
func (t *attachment) same(gen int) bool { return t != nil && t.gen == gen }

// open attaches a tab: the page is pinned off the mailbox, then answered.
func (a *Actor) open(ctx actor.Context, m *messages.HandOpen) {
	a.openFor(ctx, ctx.Sender(), m)
}

// openFor attaches m's tab and answers owner. A tab reconnecting after a
// drop (m.Resume names the attachment) replaces its old attachment; so does
// any tab once the old one is leaving because its socket closed, and a tab
// the owner pressed to drive from (m.Take). Any other second tab is refused.
func (a *Actor) openFor(ctx actor.Context, owner *actor.PID, m *messages.HandOpen) {
	t := a.att
	switch {
	case a.ended != nil || a.giving != nil:
		ctx.Send(owner, messages.OwnerFail(&messages.Error{Code: messages.CodeHandEnded,
			Message: "This take-over's hand has ended; take over again to drive the page."}))
		return
	case t != nil && a.queued == nil && (t.then == afterDetach && t.leaving || m.Resume != "" && m.Resume == t.id):
		a.queued = &waiting{owner: owner, m: m}
		a.leave(ctx, afterDetach, &messages.Error{Code: messages.CodeHandEnded, Message: "This tab connected again."})
		return
	case t != nil && a.queued == nil && m.Take:
		a.queued = &waiting{owner: owner, m: m}
		a.leave(ctx, afterDetach, &messages.Error{Code: messages.CodeHandMoved,
			Message: "You drive this page from another tab now; press Drive from here to take it back."})
		return
	case t != nil || a.opening != nil:
		ctx.Send(owner, messages.OwnerFail(messages.CodeHandBusy.Err()))
		return
	}
	a.gen++
	a.opening = owner
	go pin(a.gen, ctx.Self(), ctx.ActorSystem(), a.cfg.Open, m, a.cfg.Log)
	a.screen, a.portrait = m.Screen, m.H > m.W
}

// pin opens the conversation's tabs, pins the page for driving and tells
// self (as pinned, numbered gen), off the mailbox: opening may start a
// browser.
func pin(gen int, self *actor.PID, sys *actor.ActorSystem, open func(context.Context) (drivers.Tabs, error), m *messages.HandOpen, log *slog.Logger) {
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tabs, err := open(c)
	if err != nil {
		sys.Root.Send(self, &pinned{gen: gen, err: coded(err, "The conversation's browser did not open; take over again.")})
		return
	}
	sc, ok := drivers.ScreencastOf(tabs)
	if !ok {
		sys.Root.Send(self, &pinned{gen: gen, err: &messages.Error{Code: messages.CodeNotAvailable,
			Message: "This browser cannot show its page live; use it at the computer buddi runs on."}})
		return
	}
	p, err := sc.Pin(c)
	if err != nil {
		sys.Root.Send(self, &pinned{gen: gen, err: coded(err, "The page could not be pinned for driving; take over again.")})
		return
	}
	f := fit(c, p, m.W, m.H, log)
	sys.Root.Send(self, &pinned{gen: gen, pin: p, fit: f, w: m.W, h: m.H})
}

// waiting is a tab's request to attach, waiting for the attachment it
// replaces to let go.
type waiting struct {
	owner *actor.PID
	m     *messages.HandOpen
}

// newID names an attachment for a reconnect.
func newID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// pinned completes an attachment.
func (a *Actor) pinned(ctx actor.Context, m *pinned) {
	owner, screen := a.opening, a.screen
	a.opening, a.screen = nil, nil
	if m.gen != a.gen || owner == nil {
		return
	}
	if m.err != nil {
		ctx.Send(owner, messages.OwnerFail(m.err))
		return
	}
	pin := m.pin.(drivers.Pinned)
	raw, ok := drivers.RawInputOf(pin)
	if !ok || a.giving != nil {
		pin.Unpin()
		if a.giving != nil {
			ctx.Send(owner, messages.OwnerFail(&messages.Error{Code: messages.CodeHandEnded, Message: "The page was handed back to the agent."}))
			ctx.Send(a.giving, &messages.HandReleased{})
			return
		}
		ctx.Send(owner, messages.OwnerFail(&messages.Error{Code: messages.CodeNotAvailable,
			Message: "This browser cannot take input from the dashboard; use it at the computer buddi runs on."}))
		return
	}
	now := a.cfg.Now()
	t := &attachment{gen: m.gen, id: newID(), quit: make(chan struct{}), screen: screen, pin: pin, raw: raw, since: now, lastIn: now, leaseAt: now,
		pingAt: now, buttons: map[string]bool{}, keys: map[string]bool{}, fit: m.fit}
	if m.fit != nil {
		t.fw, t.fh = m.w, m.h
	}
	pc := a.cfg.Pacer
	pc.Pin, pc.Screen, pc.Log, pc.Now = pin, screen, a.cfg.Log, a.cfg.Now
	pc.Portrait = m.fit != nil && a.portrait
	t.pacer = ctx.Spawn(pacer.Props(pc))
	a.att = t
	ctx.Request(ctx.Parent(), &messages.HandDriving{On: true}) // the session checks who sent it
	self, sys := ctx.Self(), ctx.ActorSystem()
	go func() {
		select {
		case <-pin.Gone():
			sys.Root.Send(self, &pinGone{gen: m.gen})
		case <-t.quit: // let go first: nobody is listening
		}
	}()
	ctx.Send(owner, &messages.OwnerReply{Result: &messages.HandOpened{Link: &link{sys: sys, hand: self, gen: m.gen}, ID: t.id}})
	a.cfg.Log.Info("the owner is driving a page", "conversation", a.cfg.Conversation)
}

// fit lays p out for a touch screen of w×h CSS pixels (none when w is 0);
// it returns the page's Fitter when it did. A page that cannot be laid out
// so is driven at the agent's size (the tab zooms its picture instead).
func fit(c context.Context, p drivers.Pinned, w, h int, log *slog.Logger) drivers.Fitter {
	f, ok := drivers.FitterOf(p)
	if w == 0 || !ok {
		return nil
	}
	if err := f.Fit(c, w, h); err != nil {
		log.Warn("the page could not be laid out for the owner's screen", "err", err)
		return nil
	}
	return f
}

// coded is err's code and sentence when it has them, else def.
func coded(err error, def string) *messages.Error {
	var de *drivers.Error
	if errors.As(err, &de) {
		return &messages.Error{Code: de.Code, Message: de.Message}
	}
	return &messages.Error{Code: messages.CodeNotAnswering, Message: def}
}
