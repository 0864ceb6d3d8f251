package ui

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/lxzan/gws"
	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/handwire"
	"github.com/buddi-dev/buddi/secret"
)

// The hand socket: GET /api/browser/hand?conversation=C upgrades (as the
// events socket does) to a WebSocket on which the owner drives a taken-over
// page. The page's first message is the CSRF token; only then is the
// socket attached to the conversation's hand, which refuses a second tab.
// Frames go out as binary messages (handwire.EncodeFrame); the owner's
// input comes in as small JSON text messages (handwire.DecodeInput),
// which are checked and passed on, never logged. When the hand ends, one
// text message {"type":"end","error":{...}} says why, then the socket closes.
const (
	handAttachWait = 15 * time.Second
	closeHandEnded = 4000
)

// hands are the open hand sockets.
type hands struct {
	s   *Server
	up  *gws.Upgrader
	mu  sync.Mutex
	all map[*handSocket]struct{}
}

func newHands(s *Server) *hands {
	hs := &hands{s: s, all: map[*handSocket]struct{}{}}
	hs.up = gws.NewUpgrader(handEvents{}, &gws.ServerOption{
		ReadMaxPayloadSize: 1 << 10,
		HandshakeTimeout:   5 * time.Second,
		CheckUtf8Enabled:   true,
		Logger:             gwsLogger{s},
		Recovery: func(gws.Logger) {
			if r := recover(); r != nil {
				s.cfg.Log.Error("the hand socket's handler panicked", "panic", fmt.Sprint(r))
			}
		},
	})
	return hs
}

// hand is GET /api/browser/hand.
func (s *Server) hand(ctx *fasthttp.RequestCtx) {
	conv := string(ctx.QueryArgs().Peek("conversation"))
	if conv == "" || len(conv) > 200 {
		writeError(ctx, &messages.Error{Code: messages.CodeBadRequest, Message: "Name the conversation to drive: /api/browser/hand?conversation=ID."})
		return
	}
	// Over the tailnet, the socket's lease asks WhoIs again about where it
	// came from.
	var tn *tailnetLease
	if id := tailnetWho(ctx); id != nil {
		tn = &tailnetLease{who: *id, remote: ctx.RemoteAddr().String()}
	}
	s.upgrade(ctx, "/api/browser/hand", func(c net.Conn, req *http.Request, device, cookie string) {
		s.hands.serve(c, req, conv, device, cookie, tn)
	})
}

// handSocket is one tab's hand socket; it is the hand's messages.HandScreen.
type handSocket struct {
	hs     *hands
	conn   *gws.Conn
	conv   string
	device string
	cookie string
	tn     *tailnetLease // nil unless the socket came over the tailnet
	frames chan []byte   // the pacer keeps one frame on the wire
	pings  chan struct{}
	notes  chan []byte // text messages for the tab (its attachment)
	ends   chan *messages.Error
	done   chan struct{}
	once   sync.Once

	mu   sync.Mutex
	link messages.HandLink // set once attached
	csrf bool              // the first message carried the token
	why  *messages.Error   // set when the tab's sign-in was revoked
	over bool              // the hand let go of this tab
}

var _ messages.HandScreen = (*handSocket)(nil)

const handKey = "hand"

func (hs *hands) serve(c net.Conn, req *http.Request, conv, device, cookie string, tn *tailnetLease) {
	conn, err := hs.up.UpgradeFromConn(c, bufio.NewReader(c), req)
	if err != nil {
		hs.s.cfg.Log.Debug("hand socket upgrade failed", "err", err)
		return
	}
	h := &handSocket{hs: hs, conn: conn, conv: conv, device: device, cookie: cookie, tn: tn, frames: make(chan []byte, 2),
		pings: make(chan struct{}, 1), notes: make(chan []byte, 1), ends: make(chan *messages.Error, 1), done: make(chan struct{})}
	conn.Session().Store(handKey, h)
	hs.add(h)
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		h.write()
	}()
	_ = conn.SetReadDeadline(time.Now().Add(handAttachWait))
	conn.ReadLoop()
	h.stop()
	_ = conn.NetConn().Close()
	<-wrote
	hs.remove(h)
	if l := h.attached(); l != nil {
		l.Gone(h.revoked())
	}
}

func (hs *hands) add(h *handSocket) {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	hs.all[h] = struct{}{}
	hs.s.handCount.Add(1)
}

func (hs *hands) remove(h *handSocket) {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if _, ok := hs.all[h]; ok {
		delete(hs.all, h)
		hs.s.handCount.Add(-1)
	}
}

// closeAll ends every hand socket: buddi is stopping.
func (hs *hands) closeAll() {
	for _, h := range hs.list() {
		h.finish(&messages.Error{Code: messages.CodeHandEnded, Message: "buddi is stopping."})
	}
}

// closeDevice ends the hand sockets of a device that was signed out at
// once; its hands end with them (the lease).
func (hs *hands) closeDevice(id string) {
	for _, h := range hs.list() {
		if h.device == id {
			e := &messages.Error{Code: messages.CodeSignInExpired, Message: "This browser was signed out; sign in again and take over to drive the page."}
			h.mu.Lock()
			h.why = e
			h.mu.Unlock()
			h.finish(e)
		}
	}
}

// closeLogin ends the hand sockets a tailnet login opened: it was taken
// off the owner's list.
func (hs *hands) closeLogin(login string) {
	for _, h := range hs.list() {
		if h.tn != nil && sameLogin(h.tn.who.Login, login) {
			e := loginGone(login)
			h.mu.Lock()
			h.why = e
			h.mu.Unlock()
			h.finish(e)
		}
	}
}

// recheckTailnet asks the hand of every socket that came over the
// tailnet to check its lease now: the tailnet changed (a node logged out
// or was removed, Tailscale stopped), and the hand must not wait for its
// next periodic check to learn of it. Each check is the lease's own
// (Check, off the hand's mailbox), which ends the hand with its sentence.
func (hs *hands) recheckTailnet() {
	for _, h := range hs.list() {
		if l := h.attached(); l != nil && h.tn != nil {
			l.Recheck()
		}
	}
}

func (hs *hands) list() []*handSocket {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	list := make([]*handSocket, 0, len(hs.all))
	for h := range hs.all {
		list = append(list, h)
	}
	return list
}

// write is the socket's one writer: frames, pings and the end.
func (h *handSocket) write() {
	for {
		select {
		case <-h.done:
			return
		case b := <-h.frames:
			_ = h.conn.SetWriteDeadline(time.Now().Add(writeWait))
			if h.conn.WriteMessage(gws.OpcodeBinary, b) != nil {
				h.stop()
				return
			}
		case b := <-h.notes:
			_ = h.conn.SetWriteDeadline(time.Now().Add(writeWait))
			_ = h.conn.WriteMessage(gws.OpcodeText, b)
		case <-h.pings:
			_ = h.conn.SetWriteDeadline(time.Now().Add(writeWait))
			_ = h.conn.WritePing(nil)
		case e := <-h.ends:
			b, _ := json.Marshal(messages.HandNote{Type: messages.HandNoteEnd, Error: e})
			_ = h.conn.SetWriteDeadline(time.Now().Add(time.Second))
			_ = h.conn.WriteMessage(gws.OpcodeText, b)
			_ = h.conn.WriteClose(closeHandEnded, nil)
			_ = h.conn.NetConn().Close()
			h.stop()
			return
		}
	}
}

// attachedAs tells the tab its attachment, for a reconnect after a drop.
func (h *handSocket) attachedAs(id string) {
	b, _ := json.Marshal(messages.HandNote{Type: messages.HandNoteAttached, ID: id})
	select {
	case h.notes <- b:
	default:
	}
}

func (h *handSocket) stop() { h.once.Do(func() { close(h.done) }) }

func (h *handSocket) revoked() *messages.Error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.why
}

// attached is the link to the hand, nil before it attached or once the
// hand let go of this tab.
func (h *handSocket) attached() messages.HandLink {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.over {
		return nil
	}
	return h.link
}

// Frame queues one frame; the pacer never has more than one on the wire.
func (h *handSocket) Frame(b []byte) {
	select {
	case h.frames <- b:
	case <-h.done:
	default: // more than the pacer allows: never block the pacer
	}
}

// Ping asks the writer to ping.
func (h *handSocket) Ping() {
	select {
	case h.pings <- struct{}{}:
	default:
	}
}

// Check says whether the tab's sign-in still holds.
// Over the tailnet, it also asks WhoIs again: the node must still be on
// the tailnet as the same login, and the login on the owner's list.
func (h *handSocket) Check() *messages.Error {
	if _, e := h.hs.s.device(h.cookie); e != nil {
		return e
	}
	if h.tn == nil || h.hs.s.cfg.Tailnet == nil {
		return nil
	}
	return h.tn.check(h.hs.s.cfg.Tailnet)
}

// End is the hand's: it let go of this tab, which is told why; nothing
// more goes to the hand from here.
func (h *handSocket) End(e *messages.Error) {
	h.mu.Lock()
	h.over = true
	h.mu.Unlock()
	h.finish(e)
}

// finish says why and closes the socket.
func (h *handSocket) finish(e *messages.Error) {
	select {
	case h.ends <- e:
	default:
	}
}

// message takes one message of the tab: the CSRF token first, which
// attaches the socket to the hand; then input, passed on once decoded.
// Refused input is dropped, never forwarded, and never logged (it may be
// a typed key).
func (h *handSocket) message(b []byte) {
	in, err := handwire.DecodeInput(b)
	h.mu.Lock()
	first := !h.csrf
	h.mu.Unlock()
	link := h.attached()
	if first {
		h.first(in, err)
		return
	}
	switch {
	case err != nil || link == nil:
	case in.Kind == handwire.Give:
		go h.give()
	default:
		link.Input(in)
	}
}

// give resumes the conversation: its give back reaches the hand behind
// every input this socket passed on before it.
func (h *handSocket) give() {
	ctx, cancel := context.WithTimeout(context.Background(), handAttachWait)
	defer cancel()
	if r := h.hs.s.cfg.Actors.Owner(ctx, &messages.Resume{Conversation: h.conv}); r.Error != nil {
		h.finish(r.Error)
	}
}

// first checks the CSRF token and attaches; anything else first ends the socket.
func (h *handSocket) first(in *handwire.Input, refused error) {
	if refused != nil || in.Kind != handwire.CSRF || !secret.Match(in.Token, secret.Hash(csrfOf(h.cookie))) {
		h.finish(&messages.Error{Code: messages.CodeBadCSRF, Message: "The hand socket's first message must carry the dashboard's CSRF token; reload the dashboard."})
		return
	}
	h.mu.Lock()
	h.csrf = true
	h.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), handAttachWait)
	defer cancel()
	r := h.hs.s.cfg.Actors.Owner(ctx, &messages.HandOpen{Conversation: h.conv, Screen: h, Resume: in.Resume,
		Take: in.Take, W: in.W, H: in.H})
	opened, ok := r.Result.(*messages.HandOpened)
	if r.Error != nil || !ok {
		e := r.Error
		if e == nil {
			e = &messages.Error{Code: messages.CodeInternal, Message: "buddi gave an unexpected answer."}
		}
		h.finish(e)
		return
	}
	h.mu.Lock()
	h.link = opened.Link
	h.mu.Unlock()
	h.attachedAs(opened.ID)
	_ = h.conn.SetReadDeadline(time.Time{}) // the hand's pings decide from now on
}

// handEvents are gws's callbacks for hand sockets.
type handEvents struct{ gws.BuiltinEventHandler }

func handOf(c *gws.Conn) *handSocket {
	if v, ok := c.Session().Load(handKey); ok {
		if h, ok := v.(*handSocket); ok {
			return h
		}
	}
	return nil
}

func (handEvents) OnMessage(c *gws.Conn, m *gws.Message) {
	defer m.Close()
	if h := handOf(c); h != nil && m.Opcode == gws.OpcodeText {
		h.message(m.Bytes())
	}
}

func (handEvents) OnPong(c *gws.Conn, _ []byte) {
	if h := handOf(c); h != nil {
		if l := h.attached(); l != nil {
			l.Pong()
		}
	}
}

func (handEvents) OnClose(c *gws.Conn, _ error) {
	if h := handOf(c); h != nil {
		h.stop()
	}
}
