package ui

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lxzan/gws"
	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/messages"
)

// The events socket: GET /api/events upgrades to a WebSocket (gws, on the
// connection fasthttp hands over) that pushes Frames to a signed-in
// dashboard. It is opened only from a page on the list of origins, under a
// host on the list, with a signed-in cookie; the device is checked again
// every lease period, and signing the device out closes its sockets at once.
const (
	pingEvery    = 20 * time.Second // also how often the device is checked again
	readGrace    = 3 * pingEvery    // a client that answers no ping for this long is gone
	writeWait    = 10 * time.Second
	socketQueue  = 256
	closeGone    = 1001 // buddi is stopping
	closeSignout = 4401 // the device was signed out or its sign-in expired
)

// sockets are the open events sockets.
type sockets struct {
	s     *Server
	up    *gws.Upgrader
	mu    sync.Mutex
	all   map[*socket]struct{}
	count atomic.Int64
}

// socket is one dashboard's events socket. Its connection belongs to
// fasthttp once serve returns, so nothing may touch it after: serve waits
// for the writer, and close does nothing once the socket is released.
type socket struct {
	conn   *gws.Conn
	device string
	cookie string
	done   chan struct{} // closed when the socket closed
	once   sync.Once

	mu       sync.Mutex
	released bool // serve has returned: the connection is not ours any more
}

const socketKey = "socket"

func newSockets(s *Server) *sockets {
	ss := &sockets{s: s, all: map[*socket]struct{}{}}
	ss.up = gws.NewUpgrader(socketEvents{}, &gws.ServerOption{
		ReadMaxPayloadSize: 4 << 10, // the page sends nothing but pongs
		HandshakeTimeout:   5 * time.Second,
		CheckUtf8Enabled:   true,
		Logger:             gwsLogger{s},
		Recovery: func(gws.Logger) {
			if r := recover(); r != nil {
				s.cfg.Log.Error("the events socket's handler panicked", "panic", fmt.Sprint(r))
			}
		},
	})
	return ss
}

// events is GET /api/events: it checks the page and the sign-in, then hands
// the connection to the socket.
func (s *Server) events(ctx *fasthttp.RequestCtx) {
	s.upgrade(ctx, "/api/events", s.sockets.serve)
}

// upgrade admits a dashboard WebSocket (the events socket, the hand
// socket): a page on the list of origins, under a host on the list, with a
// signed-in cookie. It then hands fasthttp's connection to serve, which
// upgrades it.
func (s *Server) upgrade(ctx *fasthttp.RequestCtx, path string,
	serve func(c net.Conn, req *http.Request, device, cookie string)) {
	if e := s.checkPage(ctx); e != nil {
		writeError(ctx, e)
		return
	}
	cookie := string(ctx.Request.Header.Cookie(cookieName))
	if cookie == "" {
		writeError(ctx, &messages.Error{Code: messages.CodeUnauthorized, Message: "Sign in to the dashboard before opening " + path + "."})
		return
	}
	dev, e := s.device(cookie)
	if e != nil {
		writeError(ctx, e)
		return
	}
	if !ctx.Request.Header.ConnectionUpgrade() {
		writeError(ctx, &messages.Error{Code: messages.CodeBadRequest, Message: "Open " + path + " as a WebSocket."})
		return
	}
	req := upgradeRequest(ctx)
	ctx.HijackSetNoResponse(true)
	ctx.Hijack(func(c net.Conn) { serve(c, req, dev.ID, cookie) })
}

// upgradeRequest copies what the upgrade needs out of fasthttp's request,
// which is reused once the handler returns.
func upgradeRequest(ctx *fasthttp.RequestCtx) *http.Request {
	h := http.Header{}
	for _, k := range []string{"Connection", "Upgrade", "Sec-WebSocket-Key", "Sec-WebSocket-Version",
		"Sec-WebSocket-Extensions", "Sec-WebSocket-Protocol", "Origin"} {
		if v := ctx.Request.Header.Peek(k); len(v) > 0 {
			h.Set(k, string(v))
		}
	}
	return &http.Request{Method: http.MethodGet, Header: h, Host: string(ctx.Host())}
}

// serve runs one socket until it closes: the upgrade, then a writer
// goroutine, while this one reads (pongs, a close).
func (ss *sockets) serve(c net.Conn, req *http.Request, device, cookie string) {
	conn, err := ss.up.UpgradeFromConn(c, bufio.NewReader(c), req)
	if err != nil {
		ss.s.cfg.Log.Debug("events socket upgrade failed", "err", err)
		return
	}
	sock := &socket{conn: conn, device: device, cookie: cookie,
		done: make(chan struct{})}
	conn.Session().Store(socketKey, sock)
	ss.add(sock)
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		ss.write(sock)
	}()
	_ = conn.SetReadDeadline(time.Now().Add(readGrace))
	conn.ReadLoop()
	sock.stop()
	_ = conn.NetConn().Close() // a writer blocked on a slow page returns now
	<-wrote
	ss.remove(sock)
	sock.mu.Lock()
	sock.released = true
	sock.mu.Unlock()
}

func (ss *sockets) add(sock *socket) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.all[sock] = struct{}{}
	ss.count.Add(1)
}

func (ss *sockets) remove(sock *socket) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if _, ok := ss.all[sock]; ok {
		delete(ss.all, sock)
		ss.count.Add(-1)
	}
}

func (ss *sockets) each(f func(*socket)) {
	ss.mu.Lock()
	list := make([]*socket, 0, len(ss.all))
	for sock := range ss.all {
		list = append(list, sock)
	}
	ss.mu.Unlock()
	for _, sock := range list {
		f(sock)
	}
}

// closeDevice closes the sockets of a device that was signed out.
func (ss *sockets) closeDevice(id string) {
	ss.each(func(sock *socket) {
		if sock.device == id {
			sock.close(closeSignout, "This browser was signed out.")
		}
	})
}

// closeAll closes every socket: buddi is stopping.
func (ss *sockets) closeAll() {
	ss.each(func(sock *socket) { sock.close(closeGone, "buddi is stopping.") })
}

// close sends a close frame and closes the connection, unless serve has
// already let it go.
func (sock *socket) close(code uint16, reason string) {
	sock.mu.Lock()
	defer sock.mu.Unlock()
	if sock.released {
		return
	}
	_ = sock.conn.SetWriteDeadline(time.Now().Add(time.Second))
	_ = sock.conn.WriteClose(code, []byte(reason))
	_ = sock.conn.NetConn().Close()
	sock.stop()
}

func (sock *socket) stop() { sock.once.Do(func() { close(sock.done) }) }

// socketEvents are gws's callbacks: a pong keeps the socket alive; the
// page's messages are ignored.
type socketEvents struct{ gws.BuiltinEventHandler }

func (socketEvents) OnPong(c *gws.Conn, _ []byte) { _ = c.SetReadDeadline(time.Now().Add(readGrace)) }

func (socketEvents) OnClose(c *gws.Conn, _ error) {
	if v, ok := c.Session().Load(socketKey); ok {
		if sock, ok := v.(*socket); ok {
			sock.stop()
		}
	}
}

// gwsLogger sends gws's own complaints to the log.
type gwsLogger struct{ s *Server }

func (l gwsLogger) Error(v ...any) { l.s.cfg.Log.Warn("events socket", "err", fmt.Sprint(v...)) }
