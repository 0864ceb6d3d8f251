package member

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/buddi-dev/buddi/cluster/grains"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/handwire"
)

// The hand across members. A take-over's live view is drawn by the session
// on the member that runs it (A), for a tab signed in to whichever member
// the owner uses (B). B keeps the tab's screen under an id and asks the
// conversation's grain to open the hand on A with a screen that tells B
// each frame, ping and end (remoteScreen); A keeps the hand's link under
// the attachment's id, and B's link tells A the tab's input, pongs and
// leaving (remoteLink). What one member tells another arrives in order,
// so frames and acks keep their order. When the tab's member is lost, the
// hand's own pings end it on A; when A is lost, the tab keeps its last
// frame until the owner closes it or takes over again.

// handOpen asks the conversation's member to open its hand for a tab on
// the member at From, whose screen it knows as Screen.
type handOpen struct {
	Conversation string `json:"conversation"`
	Resume       string `json:"resume,omitempty"`
	Take         bool   `json:"take,omitempty"`
	W            int    `json:"w,omitempty"`
	H            int    `json:"h,omitempty"`
	Screen       string `json:"screen"`
	From         string `json:"from"`
}

// handOpened answers handOpen: the attachment's id, and the member that
// runs the hand.
type handOpened struct {
	ID     string `json:"id"`
	Member string `json:"member"`
}

// handToScreen is, for a tab's screen on another member, one frame, a
// ping, or the hand's end.
type handToScreen struct {
	Screen string          `json:"screen"`
	Frame  []byte          `json:"frame,omitempty"`
	Ping   bool            `json:"ping,omitempty"`
	End    *messages.Error `json:"end,omitempty"`
}

// handCheck asks whether the tab's sign-in still holds; handChecked says.
type (
	handCheck struct {
		Screen string `json:"screen"`
	}
	handChecked struct {
		Error *messages.Error `json:"error,omitempty"`
	}
)

// handToLink is, for a hand on another member, the tab's input, a pong,
// a check of its sign-in asked now (Check), or its leaving (Gone, with why).
type handToLink struct {
	ID    string          `json:"id"`
	Input *handwire.Input `json:"input,omitempty"`
	Pong  bool            `json:"pong,omitempty"`
	Check bool            `json:"check,omitempty"`
	Gone  bool            `json:"gone,omitempty"`
	Why   *messages.Error `json:"why,omitempty"`
}

// remoteHands are this member's halves of hands across members: the
// screens of its tabs drawn from elsewhere, and the links of its hands
// drawn for tabs elsewhere.
type remoteHands struct {
	screens sync.Map // id -> messages.HandScreen
	links   sync.Map // attachment id -> messages.HandLink
}

// handCheckWait bounds asking a tab's member whether its sign-in holds.
const handCheckWait = 5 * time.Second

// openHandThere opens, for a tab on this member, the hand of a
// conversation whose session runs on another member.
func (a *Actors) openHandThere(ctx context.Context, m *messages.HandOpen) *messages.OwnerReply {
	raw := make([]byte, 12)
	_, _ = rand.Read(raw)
	id := hex.EncodeToString(raw)
	a.mem.hands.screens.Store(id, m.Screen)
	g := &grainOwner{Hand: &handOpen{Conversation: m.Conversation, Resume: m.Resume, Take: m.Take, W: m.W, H: m.H,
		Screen: id, From: a.mem.grains.Address()}}
	g.Deadline, _ = ctx.Deadline()
	res, err := a.mem.grains.Request(ctx, m.Conversation, g)
	ans, e := fromGrain(res, err)
	if e == nil && ans.Error != nil {
		e = ans.Error
	}
	var op handOpened
	if e == nil {
		e = decodeOpened(ans, &op)
	}
	if e != nil {
		a.mem.hands.screens.Delete(id)
		return messages.OwnerFail(e)
	}
	link := &remoteLink{mem: a.mem, member: op.Member, id: op.ID, screen: id}
	return &messages.OwnerReply{Result: &messages.HandOpened{Link: link, ID: op.ID}}
}

func decodeOpened(ans *grainAnswer, op *handOpened) *messages.Error {
	if v, ok := ans.local.(*handOpened); ok {
		*op = *v
		return nil
	}
	if err := json.Unmarshal(ans.Result, op); err == nil && op.ID != "" && op.Member != "" {
		return nil
	}
	return &messages.Error{Code: messages.CodeInternal, Message: "The member running the session answered the take-over's live view with something unexpected."}
}

// openHandHere opens this member's hand for a tab on another member.
func (mem *Self) openHandHere(c context.Context, h *handOpen) *grainAnswer {
	screen := &remoteScreen{mem: mem, member: h.From, id: h.Screen}
	r := mem.parts.Gateway.Owner(c, &messages.HandOpen{Conversation: h.Conversation, Screen: screen, Resume: h.Resume,
		Take: h.Take, W: h.W, H: h.H})
	if r.Error != nil {
		return &grainAnswer{Error: r.Error}
	}
	op, ok := r.Result.(*messages.HandOpened)
	if !ok {
		return &grainAnswer{Error: &messages.Error{Code: messages.CodeInternal, Message: "The hand opened without a way in."}}
	}
	mem.hands.links.Store(op.ID, op.Link)
	screen.link.Store(&op.ID)
	return &grainAnswer{local: &handOpened{ID: op.ID, Member: mem.grains.Address()}}
}

// handHeard passes what another member said of a hand to its half here.
func (mem *Self) handHeard(msg any) any {
	switch m := msg.(type) {
	case *handToScreen:
		v, ok := mem.hands.screens.Load(m.Screen)
		if !ok {
			return nil
		}
		s := v.(messages.HandScreen)
		switch {
		case m.End != nil:
			mem.hands.screens.Delete(m.Screen)
			s.End(m.End)
		case m.Ping:
			s.Ping()
		default:
			s.Frame(m.Frame)
		}
	case *handCheck:
		v, ok := mem.hands.screens.Load(m.Screen)
		if !ok {
			return &handChecked{Error: &messages.Error{Code: messages.CodeHandEnded, Message: "The tab left."}}
		}
		// The check may ask the tailnet who the tab is: off the mailbox.
		return grains.Later(func(context.Context) any { return &handChecked{Error: v.(messages.HandScreen).Check()} })
	case *handToLink:
		v, ok := mem.hands.links.Load(m.ID)
		if !ok {
			return nil
		}
		l := v.(messages.HandLink)
		switch {
		case m.Gone:
			mem.hands.links.Delete(m.ID)
			l.Gone(m.Why)
		case m.Pong:
			l.Pong()
		case m.Check:
			l.Recheck()
		case m.Input != nil:
			l.Input(m.Input)
		}
	}
	return nil
}

// remoteScreen is, on the member running the hand, the tab on another
// member.
type remoteScreen struct {
	mem    *Self
	member string
	id     string
	link   atomic.Pointer[string] // the attachment's id, once opened
}

func (s *remoteScreen) tell(m *handToScreen) {
	m.Screen = s.id
	_ = s.mem.grains.TellTo(s.member, m) // a member away is noticed by the hand's pings
}

func (s *remoteScreen) Frame(b []byte) { s.tell(&handToScreen{Frame: b}) }
func (s *remoteScreen) Ping()          { s.tell(&handToScreen{Ping: true}) }

// End tells the tab the hand ended, and forgets the hand's link here: the
// tab's member may be gone and never say it left.
func (s *remoteScreen) End(e *messages.Error) {
	if id := s.link.Load(); id != nil {
		s.mem.hands.links.Delete(*id)
	}
	s.tell(&handToScreen{End: e})
}

func (s *remoteScreen) Check() *messages.Error {
	ctx, cancel := context.WithTimeout(context.Background(), handCheckWait)
	defer cancel()
	v, err := s.mem.grains.Ask(ctx, s.member, &handCheck{Screen: s.id})
	if c, ok := v.(*handChecked); ok && err == nil {
		return c.Error
	}
	return &messages.Error{Code: messages.CodeHandEnded, Message: "The member your dashboard tab is signed in to did not answer; take over again."}
}

// remoteLink is, on the tab's member, the hand on another member.
type remoteLink struct {
	mem    *Self
	member string
	id     string
	screen string
}

func (l *remoteLink) tell(m *handToLink) {
	m.ID = l.id
	_ = l.mem.grains.TellTo(l.member, m)
}

func (l *remoteLink) Input(in *handwire.Input) { l.tell(&handToLink{Input: in}) }
func (l *remoteLink) Pong()                    { l.tell(&handToLink{Pong: true}) }
func (l *remoteLink) Recheck()                 { l.tell(&handToLink{Check: true}) }

func (l *remoteLink) Gone(why *messages.Error) {
	l.mem.hands.screens.Delete(l.screen)
	l.tell(&handToLink{Gone: true, Why: why})
}
