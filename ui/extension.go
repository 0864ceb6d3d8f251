package ui

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lxzan/gws"
	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/extwire"
)

// The extension's socket: GET /api/extension/socket upgrades (gws, on the
// connection fasthttp hands over) for the "Your browser" extension only: a
// loopback peer, with no proxy header (a proxy in front of buddi would make
// every peer look local), under a loopback Host of buddi's port, from the
// Origin chrome-extension://<an accepted id>. What the socket carries is
// decoded here (extwire.Decode) and handed to the connection actor,
// which runs the handshake; nothing the extension sends is logged.
const (
	extOpenWait  = 10 * time.Second
	extQueue     = 64
	closeRefused = 4403
)

// proxyHeaders are the headers a proxy adds; any of them refuses the upgrade.
var proxyHeaders = []string{"X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto", "X-Forwarded-Port",
	"Forwarded", "X-Real-IP", "X-Client-IP", "True-Client-IP", "CF-Connecting-IP", "Via"}

func newExtUpgrader(s *Server) *gws.Upgrader {
	return gws.NewUpgrader(extEvents{}, &gws.ServerOption{
		ReadMaxPayloadSize: extwire.MaxMessage,
		HandshakeTimeout:   5 * time.Second,
		CheckUtf8Enabled:   true,
		Logger:             gwsLogger{s},
		Recovery: func(gws.Logger) {
			if r := recover(); r != nil {
				s.cfg.Log.Error("the extension socket's handler panicked", "panic", fmt.Sprint(r))
			}
		},
	})
}

// extensionSocket is GET /api/extension/socket.
func (s *Server) extensionSocket(ctx *fasthttp.RequestCtx) {
	id, e := s.checkExtension(ctx)
	if e != nil {
		s.cfg.Log.Info("an extension socket was refused", "code", e.Code, "why", e.Message)
		writeError(ctx, e)
		return
	}
	req := upgradeRequest(ctx)
	ctx.HijackSetNoResponse(true)
	ctx.Hijack(func(c net.Conn) { s.serveExtension(c, req, id, ownEnd(c.LocalAddr())) })
}

// ownEnd is buddi's end of a socket as host:port ("127.0.0.1:7777",
// "[::1]:7777"): what the extension dialled, unless something relayed it.
func ownEnd(a net.Addr) string {
	if ap, err := netip.ParseAddrPort(a.String()); err == nil {
		return netip.AddrPortFrom(ap.Addr().Unmap().WithZone(""), ap.Port()).String()
	}
	return a.String()
}

// checkExtension admits the upgrade and returns the extension id of its Origin.
func (s *Server) checkExtension(ctx *fasthttp.RequestCtx) (string, *messages.Error) {
	refuse := func(format string, args ...any) (string, *messages.Error) {
		return "", messages.Errorf(messages.CodeExtRefused, format, args...)
	}
	if !ctx.IsGet() || !ctx.Request.Header.ConnectionUpgrade() {
		return refuse("Open /api/extension/socket as a WebSocket.")
	}
	if ip, ok := netip.AddrFromSlice(ctx.RemoteIP()); !ok || !ip.Unmap().IsLoopback() {
		return refuse("The extension's socket is open to this computer only.")
	}
	for _, h := range proxyHeaders {
		if len(ctx.Request.Header.Peek(h)) > 0 {
			return refuse("The extension's socket refuses requests that came through a proxy (%s).", h)
		}
	}
	host := string(ctx.Host())
	if !s.origins.Host(host) || !config.Loopback(host) {
		return refuse("The extension must reach buddi at its loopback address, not %s.", messages.Clip(host, 80))
	}
	origin := string(ctx.Request.Header.Peek("Origin"))
	id, ok := strings.CutPrefix(origin, "chrome-extension://")
	if !ok || !slices.Contains(s.cfg.ExtensionIDs, id) {
		return refuse("Only the buddi extension may open this socket, not %s.", messages.Clip(orNone(origin), 80))
	}
	return id, nil
}

// extSocket is one extension socket: the actor's ExtensionWire.
type extSocket struct {
	conn *gws.Conn
	out  chan []byte
	ends chan *messages.Error
	done chan struct{}
	once sync.Once

	mu   sync.Mutex
	link messages.ExtensionLink
}

var _ messages.ExtensionWire = (*extSocket)(nil)

const extKey = "ext"

func (s *Server) serveExtension(c net.Conn, req *http.Request, id, addr string) {
	conn, err := s.extUp.UpgradeFromConn(c, bufio.NewReader(c), req)
	if err != nil {
		s.cfg.Log.Debug("extension socket upgrade failed", "err", err)
		return
	}
	x := &extSocket{conn: conn, out: make(chan []byte, extQueue), ends: make(chan *messages.Error, 1), done: make(chan struct{})}
	conn.Session().Store(extKey, x)
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		x.write()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), extOpenWait)
	r := s.cfg.Actors.Owner(ctx, &messages.ExtensionOpen{ExtensionID: id, Addr: addr, Wire: x})
	cancel()
	opened, ok := r.Result.(*messages.ExtensionOpened)
	if r.Error != nil || !ok {
		e := r.Error
		if e == nil {
			e = messages.Errorf(messages.CodeInternal, "buddi gave an unexpected answer.")
		}
		x.Close(e)
		<-wrote
		_ = conn.NetConn().Close()
		return
	}
	x.mu.Lock()
	x.link = opened.Link
	x.mu.Unlock()
	conn.ReadLoop() // the actor's pings decide when the extension is gone
	x.stop()
	_ = conn.NetConn().Close()
	<-wrote
	opened.Link.Gone()
}

// write is the socket's one writer.
func (x *extSocket) write() {
	for {
		select {
		case <-x.done:
			return
		case b := <-x.out:
			_ = x.conn.SetWriteDeadline(time.Now().Add(writeWait))
			if x.conn.WriteMessage(gws.OpcodeText, b) != nil {
				x.stop()
				return
			}
		case e := <-x.ends:
			_ = x.conn.SetWriteDeadline(time.Now().Add(time.Second))
			for len(x.out) > 0 { // what was queued before the close goes first
				_ = x.conn.WriteMessage(gws.OpcodeText, <-x.out)
			}
			if e != nil {
				_ = x.conn.WriteMessage(gws.OpcodeText, extwire.Encode(&extwire.Out{Type: extwire.RefusedType, Error: e}))
			}
			_ = x.conn.WriteClose(closeRefused, nil)
			_ = x.conn.NetConn().Close()
			x.stop()
			return
		}
	}
}

// Send queues one message; an extension too slow to take 64 is closed.
func (x *extSocket) Send(b []byte) {
	select {
	case x.out <- b:
	case <-x.done:
	default:
		x.Close(messages.Errorf(messages.CodeBrowserOffline, "The browser fell too far behind; buddi closed its connection."))
	}
}

// Close says why, then closes.
func (x *extSocket) Close(why *messages.Error) {
	select {
	case x.ends <- why:
	default:
	}
}

func (x *extSocket) stop() { x.once.Do(func() { close(x.done) }) }

func (x *extSocket) attached() messages.ExtensionLink {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.link
}

// extEvents are gws's callbacks for extension sockets.
type extEvents struct{ gws.BuiltinEventHandler }

func extOf(c *gws.Conn) *extSocket {
	if v, ok := c.Session().Load(extKey); ok {
		if x, ok := v.(*extSocket); ok {
			return x
		}
	}
	return nil
}

func (extEvents) OnMessage(c *gws.Conn, m *gws.Message) {
	defer m.Close()
	x := extOf(c)
	if x == nil {
		return
	}
	l := x.attached()
	if l == nil {
		return
	}
	if m.Opcode != gws.OpcodeText {
		l.Bad(messages.Errorf(messages.CodeBadMessage, "The extension sent a binary message; its messages are JSON text."))
		return
	}
	in, e := extwire.Decode(m.Bytes())
	if e != nil {
		l.Bad(e)
		return
	}
	l.Message(in)
}

func (extEvents) OnClose(c *gws.Conn, _ error) {
	if x := extOf(c); x != nil {
		x.stop()
	}
}

// pairExtension is POST /api/extension/pair: the code the extension shows.
// Wrong codes count against the sign-in limiter, under the extension's id.
func (s *Server) pairExtension(ctx *fasthttp.RequestCtx, _ *caller, b *messages.OwnerBody) {
	st := s.tell(&messages.GetExtension{})
	v, ok := st.Result.(*messages.ExtensionView)
	if st.Error != nil || !ok {
		writeError(ctx, orUnexpected(st.Error))
		return
	}
	if v.Pairing == "" {
		writeError(ctx, messages.Errorf(messages.CodeNoCode, "No browser is showing a pairing code; press Connect in the buddi extension's popup first."))
		return
	}
	key := "pair:" + v.Pairing
	if ok, wait := s.cfg.Limiter.Allow(key); !ok {
		writeError(ctx, messages.Errorf(messages.CodeTooManyAttempts,
			"Too many wrong pairing codes; wait %d seconds, then type the code the extension shows.", int(wait.Seconds())+1))
		return
	}
	code := strings.TrimSpace(b.Code)
	if len(code) != 6 || strings.Trim(code, "0123456789") != "" {
		s.cfg.Limiter.Fail(key)
		writeError(ctx, messages.Errorf(messages.CodeWrongCode, "The pairing code is the six digits the extension shows."))
		return
	}
	r := s.tell(&messages.PairExtension{Code: code})
	if r.Error != nil && r.Error.Code == messages.CodeWrongCode {
		s.cfg.Limiter.Fail(key)
	}
	if r.Error != nil {
		writeError(ctx, r.Error)
		return
	}
	writeOK(ctx, r.Result)
}

func orUnexpected(e *messages.Error) *messages.Error {
	if e != nil {
		return e
	}
	return messages.Errorf(messages.CodeInternal, "buddi gave an unexpected answer.")
}
