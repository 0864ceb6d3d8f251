package messages

import (
	"time"

	"github.com/buddi-dev/buddi/messages/handwire"
)

// The remote hand: while the owner has taken a page over, the dashboard's
// hand socket carries the page's picture out (binary frames) and the
// owner's pointer and keys in (JSON text messages): package handwire.
// The socket is the surface's; the hand actor is the session's child. They
// meet through HandOpen: the surface hands the actor a HandScreen to paint
// on, and gets back a HandLink to send the owner's input through.

// HandOpen asks the session's hand to drive its page from one dashboard
// tab. Answered with *OwnerReply carrying *HandOpened, or an error: no
// take-over (no_hand), another tab driving (hand_busy).
type HandOpen struct {
	Conversation string
	Screen       HandScreen
	// Resume names the attachment this tab had before its connection
	// dropped (HandOpened.ID): that one is let go and this takes its place,
	// even before buddi noticed the drop.
	Resume string
	// Take moves the hand to this tab from another tab driving (the owner
	// pressed to drive from here); without it a second tab is refused.
	Take bool
	// W and H, when set, are the touch screen's size in CSS pixels: the
	// page is laid out at it while this tab drives, and at the agent's
	// own size again once it lets go.
	W, H int
}

// Target is the conversation the control is for.
func (m *HandOpen) Target() string { return m.Conversation }

// HandOpened answers HandOpen: the way in for the owner's input.
type HandOpened struct {
	Link HandLink
	ID   string // what the tab sends as Resume to reconnect
}

func (*HandOpened) answer() {}

// HandScreen is the dashboard tab a hand paints on; the surface implements
// it. Its methods never block on the network.
type HandScreen interface {
	// Frame queues one encoded frame (handwire.EncodeFrame) for the tab.
	Frame(b []byte)
	// Ping sends a ping the tab answers with a pong (HandLink.Pong).
	Ping()
	// Check says whether the tab's dashboard sign-in still holds; it may
	// take a moment and is called off the actor's mailbox.
	Check() *Error
	// End closes the tab's socket with one sentence saying why.
	End(e *Error)
}

// HandLink is the way the surface passes the owner's input to the hand.
// Its methods never block.
type HandLink interface {
	// Input passes one decoded input (handwire.DecodeInput).
	Input(in *handwire.Input)
	// Pong reports the tab answered a ping.
	Pong()
	// Recheck asks the hand to check the tab's sign-in now, off its
	// schedule: what the sign-in rests on changed (the tailnet's map).
	Recheck()
	// Gone reports the tab's socket closed: why is nil when the tab just
	// left (another may attach), or says why the hand must end (its
	// sign-in was revoked).
	Gone(why *Error)
}

// HandDriving tells the session whether a dashboard tab drives its hand
// now: the surfaces show another tab that it is taken.
type HandDriving struct{ On bool }

// HandEnded tells the session its hand ended on its own (the tab left, the
// lease failed, the page went away): the take-over stays, without a hand,
// until the owner takes over again.
type HandEnded struct{ Why *Error }

// The hand's limits, as the specification sets them.
const (
	HandMaxLife    = 2 * time.Hour    // a hand never lives longer
	HandIdle       = 10 * time.Minute // no input for this long ends it
	HandPingEvery  = 15 * time.Second // two pings unanswered end it
	HandLeaseEvery = 30 * time.Second // the sign-in is checked at least this often
	HandLeaseAfter = time.Second      // and at most this long after any input
	HandMaxBehind  = 2 << 20          // bytes the tab may fall behind before the hand ends
	HandStepBehind = 256 << 10        // bytes behind, for HandStepAfter, that step quality down
	HandStepAfter  = time.Second      // how long behind before stepping down
	HandClearAfter = 5 * time.Second  // how long clear before stepping back up
)

// HandNote is a text message the hand socket sends its tab: "attached"
// with the attachment's ID (for a Reconnect after a drop), or "end" with
// why the hand ended, just before the socket closes.
type HandNote struct {
	Type  string `json:"type"`
	ID    string `json:"id,omitempty"`
	Error *Error `json:"error,omitempty"`
}

// The kinds of HandNote.
const (
	HandNoteAttached = "attached"
	HandNoteEnd      = "end"
)
