package extconn

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/extwire"
)

// What a conn and the Actor say to each other, and what the link and the
// timers bring.
type (
	// from the link
	inMsg  struct{ in extwire.In }
	badMsg struct{ e *messages.Error }
	gone   struct{}
	tick   struct{}

	// conn → Actor (requests; the answer comes back to the conn)
	helloFrom struct {
		id    string
		hello *extwire.Hello
	}
	tokenFrom struct {
		id    string
		token string
		build string
		mac   []byte     // the extension's proof
		over  transcript // what it must be over
	}
	forgetFrom struct{}
	eventFrom  struct {
		conn *actor.PID
		ev   *extwire.Event
	}
	closing struct{ conn *actor.PID } // the conn closed its socket

	// transcript is what both sides' proofs of one connection cover.
	transcript struct {
		addr       string // buddi's end of the socket
		id         string // the extension's id
		ext, buddi []byte // the two nonces
	}

	// Actor → conn
	prove    struct{ hash string }
	showCode struct {
		code    string
		expires int64 // Unix ms
	}
	paired   struct{ token string }
	accepted struct{}
	refuse   struct{ err *messages.Error }
)

// link is the surface's way in: each call is one message to its conn.
type link struct {
	sys  *actor.ActorSystem
	conn *actor.PID
}

var _ messages.ExtensionLink = (*link)(nil)

func (l *link) Message(in extwire.In) { l.sys.Root.Send(l.conn, &inMsg{in: in}) }
func (l *link) Bad(e *messages.Error) { l.sys.Root.Send(l.conn, &badMsg{e: e}) }
func (l *link) Gone()                 { l.sys.Root.Send(l.conn, &gone{}) }
