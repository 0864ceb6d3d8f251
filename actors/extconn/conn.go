package extconn

import (
	"crypto/rand"
	"encoding/base64"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/extwire"
)

// conn is one extension socket: Hello → (Pairing →) Hello → Proved →
// Ready. Each behaviour takes only the messages that may come then; any
// other message of the extension ends the connection.
type conn struct {
	cfg      Config
	sys      *actor.ActorSystem
	id       string // the extension id of the socket's Origin
	wire     messages.ExtensionWire
	behavior actor.Behavior
	timer    *time.Timer
	closed   bool

	since time.Time  // when the current step began (hello, or the code's life)
	over  transcript // what this connection's proofs cover
	build string
	asked bool // a hello was passed on; its answer is awaited

	// Pairing and Ready: the data pings.
	seq    int64
	missed int
	pingAt time.Time

	// Ready: commands.
	cmds cmdState
}

// connMailbox bounds a conn's mailbox: an extension flooding the socket
// waits (its socket stops being read) rather than growing it.
const connMailbox = 256

func connProps(cfg Config, id, addr string, wire messages.ExtensionWire) *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor {
		c := &conn{cfg: cfg, id: id, wire: wire, behavior: actor.NewBehavior(), since: cfg.Now(),
			over: transcript{addr: addr, id: id}}
		c.cmds.init()
		c.behavior.Become(c.hello)
		return c
	}, actor.WithMailbox(actor.Bounded(connMailbox)))
}

func (c *conn) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		c.sys = ctx.ActorSystem()
		c.arm(ctx)
		return
	case *actor.Stopping:
		c.stopping()
		return
	case *actor.Stopped, *actor.Restarting:
		return
	case *gone:
		if !c.closed {
			c.closed = true // nothing more can be written
			c.failAll(messages.Errorf(messages.CodeBrowserOffline,
				"The browser's connection closed before it answered; the command may or may not have run."))
			ctx.Send(ctx.Parent(), &closing{conn: ctx.Self()})
		}
		return
	case *badMsg:
		c.close(ctx, m.e)
		return
	case *refuse:
		c.close(ctx, m.err)
		return
	case *Send:
		if !c.ready() || c.closed {
			ctx.Respond(&Reply{Err: offline()})
			return
		}
	}
	if !c.closed {
		c.behavior.Receive(ctx)
	}
}

func (c *conn) arm(ctx actor.Context) {
	self, sys := ctx.Self(), ctx.ActorSystem()
	c.timer = time.AfterFunc(c.cfg.Limits.Tick, func() { sys.Root.Send(self, &tick{}) })
}

// handshakeTick closes a connection whose handshake has run past its time,
// else waits for the next tick.
func (c *conn) handshakeTick(ctx actor.Context) {
	if c.cfg.Now().Sub(c.since) >= c.cfg.Limits.HelloWait {
		c.close(ctx, messages.Errorf(messages.CodeExtRefused, "The extension did not prove itself in time."))
		return
	}
	c.arm(ctx)
}

// hello waits for the extension's hello, then for the Actor's answer to it.
func (c *conn) hello(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *tick:
		c.handshakeTick(ctx)
	case *inMsg:
		h, ok := m.in.(*extwire.Hello)
		if !ok || c.asked {
			c.outOfOrder(ctx, m.in, "a hello")
			return
		}
		c.over.ext, _ = base64.StdEncoding.DecodeString(h.Nonce)
		c.build, c.asked = h.Build, true
		ctx.Request(ctx.Parent(), &helloFrom{id: c.id, hello: h})
	case *prove:
		c.asked = false
		c.over.buddi = newNonce()
		c.behavior.Become(c.proved)
		c.send(&extwire.Out{Type: extwire.ProofType, Sig: base64.StdEncoding.EncodeToString(c.over.mac(m.hash, extwire.ProverBuddi)),
			Nonce: base64.StdEncoding.EncodeToString(c.over.buddi), Addr: c.over.addr})
	case *showCode:
		c.asked = false
		c.pingAt, c.missed = c.cfg.Now(), 0
		c.behavior.Become(c.pairing)
		c.showCode(m)
	}
}

// pairing shows a code until the owner types it or it expires; pings keep
// the extension's worker awake meanwhile.
func (c *conn) pairing(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *tick:
		if !c.cfg.Now().Before(c.since) {
			c.close(ctx, messages.Errorf(messages.CodeExpired, "The pairing code expired; press Connect for a new one."))
			return
		}
		if c.ping(ctx) {
			c.arm(ctx)
		}
	case *showCode: // the code was spent: a new one
		c.showCode(m)
	case *paired:
		c.since, c.over.ext, c.over.buddi = c.cfg.Now(), nil, nil
		c.behavior.Become(c.hello)
		c.send(&extwire.Out{Type: extwire.PairedType, Token: m.token, Buddi: c.cfg.Name})
	case *inMsg:
		if p, ok := m.in.(*extwire.Pong); ok {
			c.pong(p)
			return
		}
		c.outOfOrder(ctx, m.in, "a pong while a code shows")
	}
}

func (c *conn) showCode(m *showCode) {
	c.since = time.UnixMilli(m.expires)
	c.send(&extwire.Out{Type: extwire.CodeType, Code: m.code, Expires: m.expires})
}

// proved has proved buddi to the extension and waits for its token.
func (c *conn) proved(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *tick:
		c.handshakeTick(ctx)
	case *inMsg:
		t, ok := m.in.(*extwire.Token)
		if !ok || c.asked {
			c.outOfOrder(ctx, m.in, "the token")
			return
		}
		c.asked = true
		mac, _ := base64.StdEncoding.DecodeString(t.Proof)
		ctx.Request(ctx.Parent(), &tokenFrom{id: c.id, token: t.Token, build: c.build, mac: mac, over: c.over})
	case *accepted:
		c.asked = false
		c.pingAt, c.missed, c.cmds.live = c.cfg.Now(), 0, true
		c.behavior.Become(c.readyState)
		c.send(&extwire.Out{Type: extwire.ReadyType, Buddi: c.cfg.Name})
	}
}

func (c *conn) ready() bool { return c.cmds.live }

// mac is prover's proof over this connection, keyed by the token's hash.
func (t transcript) mac(hash, prover string) []byte {
	return extwire.Proof(hash, prover, t.addr, t.id, t.ext, t.buddi)
}

// newNonce is buddi's nonce of one connection: 32 random bytes.
func newNonce() []byte {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return b
}

// ping sends a data ping when one is due; false when the connection closed
// for three missed.
func (c *conn) ping(ctx actor.Context) bool {
	if c.cfg.Now().Sub(c.pingAt) < c.cfg.Limits.PingEvery {
		return true
	}
	if c.missed >= c.cfg.Limits.MissedPings {
		c.close(ctx, messages.Errorf(messages.CodeBrowserOffline, "The browser missed three pings, so buddi closed its connection."))
		return false
	}
	if c.cmds.blocked() {
		return true // nothing is sent while an abandon is unconfirmed
	}
	c.seq++
	c.missed++
	c.pingAt = c.cfg.Now()
	c.send(&extwire.Out{Type: extwire.PingType, Seq: c.seq})
	return true
}

func (c *conn) pong(p *extwire.Pong) {
	if p.Seq <= c.seq {
		c.missed = 0
	}
}

func (c *conn) send(m *extwire.Out) {
	if !c.closed {
		c.wire.Send(extwire.Encode(m))
	}
}

func (c *conn) outOfOrder(ctx actor.Context, in extwire.In, want string) {
	c.close(ctx, messages.Errorf(messages.CodeExtRefused,
		"The extension sent %s when buddi expected %s; the connection is closed.", kind(in), want))
}

func kind(in extwire.In) string {
	switch in.(type) {
	case *extwire.Hello:
		return "a hello"
	case *extwire.Token:
		return "its token"
	case *extwire.Pong:
		return "a pong"
	case *extwire.Reply:
		return "a command reply"
	case *extwire.Abandoned:
		return "an abandon confirmation"
	case *extwire.Forget:
		return "forget"
	}
	return "a message"
}

// close ends the connection with why, said to the extension, and fails
// the commands it held. The conn lives on, answering commands with
// browser_offline, until the Actor, told it closed, poisons it: a command
// the Actor forwarded before it knew is answered, never lost.
func (c *conn) close(ctx actor.Context, why *messages.Error) {
	if c.closed {
		return
	}
	c.closed = true
	c.wire.Close(why)
	c.cfg.Log.Debug("an extension connection closed", "extension", c.id, "code", why.Code, "why", why.Message)
	c.failAll(messages.Errorf(messages.CodeBrowserOffline,
		"The browser's connection closed before it answered; the command may or may not have run."))
	ctx.Send(ctx.Parent(), &closing{conn: ctx.Self()})
}

func (c *conn) stopping() {
	if c.timer != nil {
		c.timer.Stop()
	}
	if !c.closed {
		c.closed = true
		c.wire.Close(messages.Errorf(messages.CodeBrowserOffline, "buddi is stopping."))
	}
	c.failAll(messages.Errorf(messages.CodeBrowserOffline,
		"The browser's connection closed before it answered; the command may or may not have run."))
}
