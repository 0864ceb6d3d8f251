package session

import (
	"context"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// The owner's pictures of the page. One is taken after every step, whether
// or not a surface watches, at give back
// and at a Stop (before the tabs close), so a surface that opens later
// shows the page as it is; a step's own screenshot serves when it took
// one. They are bounded: at most one a second per session (the newest
// state is always taken, after the second is up), scaled to snapEdge.
//
// A picture the driver takes holds the tabs for its capture, and an act
// that comes meanwhile waits for it: an agent that acted again at once
// waited 360–560 ms on a busy machine here for the picture of every new
// page it opened. So a step's picture starts only once the agent has let
// the page be for snapQuiet, and not while a step runs; a step that has
// waited snapLate for its picture has it taken at the next step's end, so
// an agent that never pauses still leaves pictures behind.
const (
	snapWait  = 10 * time.Second       // bounds taking one
	snapEvery = time.Second            // the least time between two
	snapQuiet = 200 * time.Millisecond // the agent's pause after a step that a picture waits for
	snapLate  = 3 * time.Second        // the longest a step waits for its picture
	lastWait  = 500 * time.Millisecond // bounds the last one, at a Stop
)

// pictures is the session's state of its pictures.
type pictures struct {
	at      time.Time // when the last one started
	running bool
	again   bool // the page may have changed while one was taken
	retried bool // the last one failed and was taken again
	due     bool // one is scheduled for when the second is up
	timer   *time.Timer
	// wanted is when the oldest step still without its picture ended,
	// zero when none waits. quiet is the timer of the agent's pause, made
	// once and set again (no allocation on an act), pausing while it is
	// set; ended is when the latest step ended, by the monotonic clock
	// the timer keeps.
	wanted  time.Time
	quiet   *time.Timer
	pausing bool
	ended   time.Time
}

// snapped carries a snapshot taken off the mailbox back into it; snap is
// nil when none could be taken.
type snapped struct{ snap *messages.Snapshot }

// snapDue is the timer message of a picture put off by the rate bound.
type snapDue struct{}

// snapQuietEnd is the timer message of the agent's pause after a step.
type snapQuietEnd struct{}

// snapshotAfter takes the owner's picture of the page after a step. It
// runs after the agent was answered, so the agent never waits for it; its
// next act waits for the tabs' turn only when a capture has begun, once
// the agent had paused (see snapQuiet) or its steps had gone snapLate
// without one.
func (a *Actor) snapshotAfter(ctx actor.Context, d *done) {
	p := &a.pics
	now := a.cfg.Now()
	if p.wanted.IsZero() {
		p.wanted = now
	}
	if shot := d.shot(); shot != nil || now.Sub(p.wanted) >= snapLate {
		a.pictureSoon(ctx, shot) // the step's own screenshot holds nothing up
		return
	}
	p.ended = time.Now()
	if !p.pausing {
		a.quietFor(ctx, snapQuiet)
	}
}

// quietFor sets the timer of the agent's pause to fire after d.
func (a *Actor) quietFor(ctx actor.Context, d time.Duration) {
	p := &a.pics
	p.pausing = true
	if p.quiet == nil {
		self, sys := ctx.Self(), ctx.ActorSystem()
		p.quiet = time.AfterFunc(d, func() { sys.Root.Send(self, &snapQuietEnd{}) })
		return
	}
	p.quiet.Reset(d)
}

// quietEnded is the timer of the agent's pause firing: the picture is
// taken now if the latest step ended snapQuiet ago and none runs; else the
// pause goes on, until the rest of it is over or the running step ends.
func (a *Actor) quietEnded(ctx actor.Context) {
	p := &a.pics
	p.pausing = false
	if p.wanted.IsZero() {
		return // taken meanwhile
	}
	if _, acting := a.st.(*working); acting {
		a.quietFor(ctx, snapQuiet)
		return
	}
	if left := snapQuiet - time.Since(p.ended); left > 0 {
		a.quietFor(ctx, left)
		return
	}
	a.pictureSoon(ctx, nil)
}

// pictureSoon takes a picture now, or once the rate bound allows it.
func (a *Actor) pictureSoon(ctx actor.Context, shot []byte) {
	p := &a.pics
	switch {
	case a.tabs == nil:
	case p.running:
		p.again = true
	case a.cfg.Now().Sub(p.at) < snapEvery:
		if !p.due {
			p.due = true
			self, sys := ctx.Self(), ctx.ActorSystem()
			p.timer = time.AfterFunc(snapEvery-a.cfg.Now().Sub(p.at), func() { sys.Root.Send(self, &snapDue{}) })
		}
	default:
		a.takeSnapshot(ctx, shot)
	}
}

// takeSnapshot scales shot, or a screenshot it takes when shot is nil, off
// the mailbox, publishes it, and sends it back as *snapped. It is published
// from here, not from the mailbox, so that the picture of a session's last
// act is kept even when the session ends before it is taken.
func (a *Actor) takeSnapshot(ctx actor.Context, shot []byte) {
	a.pics.running, a.pics.at, a.pics.wanted = true, a.cfg.Now(), time.Time{}
	tabs, conv, url, codes, now, bus := a.tabs, a.cfg.Conversation, a.url, slices.Clone(a.codes), a.cfg.Now, a.cfg.Bus
	quit := a.cfg.Work.ending()
	self, sys := ctx.Self(), ctx.ActorSystem()
	a.cfg.Work.picture(func() {
		sys.Root.Send(self, &snapped{snap: picture(tabs, conv, url, codes, shot, now, bus, snapWait, quit)})
	})
}

// picture is the owner's picture of the page: shot scaled, or a
// screenshot taken within wait; it is published, with the one-time codes
// typed masked in its address. Nil when none could be taken, or when quit
// closed before a core was free to scale it.
func picture(tabs drivers.Tabs, conv, url string, codes []string, shot []byte, now func() time.Time, bus *events.Bus, wait time.Duration, quit <-chan struct{}) *messages.Snapshot {
	at := now()
	if shot == nil {
		if tabs == nil {
			return nil // no page open: nothing to take a picture of
		}
		c, cancel := context.WithTimeout(context.Background(), wait)
		out, err := tabs.Do(c, &drivers.Action{Kind: drivers.Screenshot, Owner: true})
		cancel()
		if err != nil || out == nil {
			return nil
		}
		shot, at = out.Image, now()
		if out.URL != "" {
			url = egress.MaskTyped(out.URL, codes)
		}
	}
	j := scaled(shot, snapEdge, snapQuality, quit)
	if j == nil {
		return nil
	}
	s := &messages.Snapshot{Conversation: conv, URL: url, At: at.UTC(), JPEG: j}
	bus.Publish(&messages.SnapshotTaken{Snapshot: *s})
	return s
}

// lastPicture is what takes the last picture of the page before its tabs
// close at a Stop, within lastWait, unless the newest picture already
// shows the page as it is; it is called off the mailbox.
func (a *Actor) lastPicture(ctx actor.Context, tabs drivers.Tabs) func() {
	if tabs == nil || a.snapFresh(a.pageAt) {
		return func() {}
	}
	conv, url, codes, now, bus, work := a.cfg.Conversation, a.url, slices.Clone(a.codes), a.cfg.Now, a.cfg.Bus, a.cfg.Work
	quit := work.ending()
	self, sys := ctx.Self(), ctx.ActorSystem()
	return func() {
		defer work.picturing()()
		if s := picture(tabs, conv, url, codes, nil, now, bus, lastWait, quit); s != nil {
			sys.Root.Send(self, &snapped{snap: s})
		}
	}
}

// snapped keeps a snapshot and answers the owners waiting, once it shows
// the page as it is (or none more is coming).
func (a *Actor) snapped(ctx actor.Context, m *snapped) {
	p := &a.pics
	p.running = false
	if m.snap != nil && (a.snap == nil || m.snap.At.After(a.snap.At)) {
		a.snap = m.snap
		a.followPage(m.snap)
	}
	if !p.again || m.snap == nil || a.snapFresh(a.pageAt) {
		for _, o := range a.asking {
			ctx.Send(o, a.snapshotReply())
		}
		a.asking = nil
	}
	switch {
	case m.snap != nil:
		p.retried = false
	case !p.retried && a.tabs != nil && !a.ending():
		// One that failed (a page between two documents, a capture that
		// timed out) is taken once more, past the rate bound: the surfaces
		// would otherwise keep the picture before until a later step.
		p.retried, p.again = true, true
	}
	if p.again {
		p.again = false
		if len(a.asking) > 0 {
			a.takeSnapshot(ctx, nil) // an owner waits: past the bound
		} else {
			a.pictureSoon(ctx, nil)
		}
	}
}

// followPage takes the page's address from a picture taken since the last
// step: the page moves without a step when the owner drives it, or when a
// take-over left the agent's visit to arrive, and the session's address
// then said where its last step had left it.
func (a *Actor) followPage(s *messages.Snapshot) {
	if s.URL == "" || s.URL == a.url || a.tabs == nil || a.ending() || s.At.Before(a.pageAt) {
		return
	}
	a.url = s.URL
	a.show()
}

// ending reports whether the session is closing or stopped: it takes no
// more pictures of its own.
func (a *Actor) ending() bool {
	switch a.st.(type) {
	case *closing, *stopped:
		return true
	}
	return false
}

// snapshotOf answers the owner with a picture of the page as it is: the
// newest one when nothing may have changed since, else a new one.
func (a *Actor) snapshotOf(ctx actor.Context) {
	if a.tabs == nil || a.snapFresh(a.pageAt) {
		ctx.Respond(a.snapshotReply())
		return
	}
	a.asking = append(a.asking, ctx.Sender())
	if a.pics.running {
		a.pics.again = true
		return
	}
	a.takeSnapshot(ctx, nil)
}

// snapFresh says whether the newest picture shows the page as it is: it
// was taken after since, and nobody drives the page by hand.
func (a *Actor) snapFresh(since time.Time) bool {
	if _, driven := a.st.(*takenOver); driven {
		return false
	}
	return a.snap != nil && !a.snap.At.Before(since)
}

func (a *Actor) snapshotReply() *messages.OwnerReply {
	if a.snap == nil {
		return messages.OwnerFail(&messages.Error{Code: messages.CodeNotFound,
			Message: "There is no snapshot of this session yet: its agent has not opened a page."})
	}
	return &messages.OwnerReply{Result: a.snap}
}

// snapshotGone answers the owners waiting for a snapshot that will not
// come: the session is stopping.
func (a *Actor) snapshotGone(ctx actor.Context) {
	for _, t := range []*time.Timer{a.pics.timer, a.pics.quiet} {
		if t != nil {
			t.Stop()
		}
	}
	for _, p := range a.asking {
		ctx.Send(p, messages.OwnerFail(&messages.Error{Code: messages.CodeNoSession,
			Message: "The session ended before its picture was taken."}))
	}
	a.asking = nil
}
