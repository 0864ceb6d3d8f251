package hand

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/handwire"
)

var _ messages.HandLink = (*link)(nil)

// link is the surface's way in: each call is one message to the hand,
// tagged with the attachment it belongs to.
type link struct {
	sys  *actor.ActorSystem
	hand *actor.PID
	gen  int
}

func (l *link) Input(in *handwire.Input) { l.sys.Root.Send(l.hand, &input{gen: l.gen, in: in}) }
func (l *link) Pong()                    { l.sys.Root.Send(l.hand, &pong{gen: l.gen}) }
func (l *link) Recheck()                 { l.sys.Root.Send(l.hand, &leaseDue{gen: l.gen}) }
func (l *link) Gone(why *messages.Error) { l.sys.Root.Send(l.hand, &detach{gen: l.gen, why: why}) }

// The hand's own messages.
type (
	input struct {
		gen int
		in  *handwire.Input
	}
	pong   struct{ gen int }
	detach struct {
		gen int
		why *messages.Error
	}
	pinned struct {
		gen  int
		pin  any // drivers.Pinned, or nil with err
		fit  drivers.Fitter
		w, h int // the screen fit laid the page out for
		err  *messages.Error
	}
	inputDone struct {
		gen  int
		fail *messages.Error
		kind handwire.Kind
		w, h int       // a View's screen
		at   time.Time // when the page had it
	}
	leased struct {
		gen  int
		fail *messages.Error
	}
	leaseDue struct{ gen int }
	pinGone  struct{ gen int }
	tick     struct{}
	letGo    struct{ gen int }
)

// tagged is a message of one attachment.
type tagged interface{ tag() int }

func (m *input) tag() int     { return m.gen }
func (m *pong) tag() int      { return m.gen }
func (m *detach) tag() int    { return m.gen }
func (m *inputDone) tag() int { return m.gen }
func (m *leased) tag() int    { return m.gen }
func (m *leaseDue) tag() int  { return m.gen }
func (m *pinGone) tag() int   { return m.gen }
