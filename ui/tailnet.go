package ui

import (
	"context"
	"net"
	"strings"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/messages"
)

// Tailnet is buddi's node on the owner's tailnet, as the surface needs it:
// who a connection on its listener comes from, the names it answers
// under, and the owner's list of logins. The daemon wires it.
type Tailnet interface {
	// WhoIs names the login and node behind remoteAddr; an error when the
	// tailnet no longer knows it (logged out, removed) or is stopped.
	WhoIs(ctx context.Context, remoteAddr string) (messages.TailnetIdentity, error)
	// Host reports whether a Host header names the node.
	Host(host string) bool
	// URL is the dashboard's address on the tailnet, "" until it is up.
	URL() string
	// OwnerLogins is the owner's list; OwnerAllowed asks about one login.
	OwnerLogins() []string
	OwnerAllowed(login string) bool
	AddOwner(login string) error
	RemoveOwner(login string) error
	// OnChange calls f after each change of the tailnet the node sees: a
	// peer added, changed or removed, its own state or login.
	OnChange(f func())
}

// whoIsWait bounds one WhoIs.
const whoIsWait = 5 * time.Second

// tailnetConn marks a connection accepted on the tailnet listener.
type tailnetConn struct{ net.Conn }

type tailnetListener struct{ net.Listener }

func (l tailnetListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return tailnetConn{c}, nil
}

// ServeTailnet serves the same surface on the tailnet's listener, where
// every request is attributed with WhoIs. Shutdown closes it too.
// From then on, each change of the tailnet checks again, at once, every
// hand that came over it (hands.recheckTailnet).
func (s *Server) ServeTailnet(ln net.Listener) {
	s.cfg.Tailnet.OnChange(s.hands.recheckTailnet)
	s.tailnetDone = make(chan error, 1)
	go func() { s.tailnetDone <- s.srv.Serve(tailnetListener{ln}) }()
}

// TailnetURL is the dashboard's address on the tailnet, "" when off or
// not up yet.
func (s *Server) TailnetURL() string {
	if s.cfg.Tailnet == nil {
		return ""
	}
	return s.cfg.Tailnet.URL()
}

const tailnetKey = "tailnet"

// onTailnet reports whether ctx came over the tailnet listener.
func onTailnet(ctx *fasthttp.RequestCtx) bool {
	_, ok := ctx.Conn().(tailnetConn)
	return ok
}

// tailnetWho is the identity the gate attached to a tailnet request, nil
// for a request that did not come over the tailnet.
func tailnetWho(ctx *fasthttp.RequestCtx) *messages.TailnetIdentity {
	id, _ := ctx.UserValue(tailnetKey).(*messages.TailnetIdentity)
	return id
}

// whose says whose tailnet this is, for the page a stranger gets.
func (s *Server) whose() string {
	if l := s.cfg.Tailnet.OwnerLogins(); len(l) > 0 {
		return l[0]
	}
	return "its owner"
}

// tailnetGate attributes a request on the tailnet listener with WhoIs. A
// login on the owner's list goes on; with the list still empty, any login
// may go on to sign in once with a link from the host (which puts it on
// the list). Every other request gets only whose tailnet this is.
func (s *Server) tailnetGate(ctx *fasthttp.RequestCtx) *messages.Error {
	c, cancel := context.WithTimeout(context.Background(), whoIsWait)
	defer cancel()
	id, err := s.cfg.Tailnet.WhoIs(c, ctx.RemoteAddr().String())
	if err == nil && (s.cfg.Tailnet.OwnerAllowed(id.Login) || len(s.cfg.Tailnet.OwnerLogins()) == 0) {
		ctx.SetUserValue(tailnetKey, &id)
		return nil
	}
	if err != nil {
		s.cfg.Log.Info("tailnet: WhoIs failed", "remote", ctx.RemoteAddr().String(), "err", err)
	} else {
		s.record(&messages.AuditRecord{Action: "tailnet_refused", Code: messages.CodeTailnetRefused, Detail: id.Login + " on " + id.Node})
	}
	return messages.Errorf(messages.CodeTailnetRefused, "This is the buddi of %s on this tailnet; it answers nobody else.", s.whose())
}

// refuseTailnet answers a stranger: a page for a browser, the error for
// a program.
func refuseTailnet(ctx *fasthttp.RequestCtx, e *messages.Error) {
	if ctx.IsGet() && !ctx.Request.Header.ConnectionUpgrade() && len(ctx.Path()) > 0 && !hasPrefix(ctx.Path(), "/api/") && string(ctx.Path()) != "/mcp" {
		ctx.SetStatusCode(fasthttp.StatusForbidden)
		ctx.SetContentType("text/html; charset=utf-8")
		ctx.Response.Header.Set("X-Buddi-Code", string(e.Code))
		ctx.SetBodyString("<!doctype html><meta charset=utf-8><title>buddi</title><p>" + htmlEscape(e.Message) + "</p>\n")
		return
	}
	writeError(ctx, e)
}

func hasPrefix(b []byte, p string) bool { return len(b) >= len(p) && string(b[:len(p)]) == p }

func htmlEscape(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '<':
			out = append(out, "&lt;"...)
		case '>':
			out = append(out, "&gt;"...)
		case '&':
			out = append(out, "&amp;"...)
		case '"':
			out = append(out, "&quot;"...)
		default:
			out = append(out, c)
		}
	}
	return string(out)
}

// tailnetSignIn signs a browser on the tailnet in without a link: its
// login is on the owner's list. The device it makes carries the identity,
// so the list of devices shows it and signing it out is possible.
func (s *Server) tailnetSignIn(ctx *fasthttp.RequestCtx, id *messages.TailnetIdentity) {
	if e := s.checkHost(ctx); e != nil {
		writeError(ctx, e)
		return
	}
	cookie, dev, e := s.addDevice(string(ctx.UserAgent()), id)
	if e != nil {
		writeError(ctx, e)
		return
	}
	s.record(&messages.AuditRecord{Action: "tailnet_sign_in", Detail: id.Login + " on " + id.Node})
	s.setCookie(ctx, cookie, deviceTTL)
	dev.Current = true
	writeOK(ctx, &messages.Me{Device: dev, CSRF: csrfOf(cookie)})
}

// tailnetInfo is GET /api/tailnet.
func (s *Server) tailnetInfo(ctx *fasthttp.RequestCtx, _ *caller, _ *messages.OwnerBody) {
	if s.cfg.Tailnet == nil {
		writeOK(ctx, &messages.TailnetView{Owners: []string{}})
		return
	}
	writeOK(ctx, &messages.TailnetView{On: true, URL: s.cfg.Tailnet.URL(), Owners: s.cfg.Tailnet.OwnerLogins()})
}

// addTailnetOwner is POST /api/tailnet/owners {"name": login}.
func (s *Server) addTailnetOwner(ctx *fasthttp.RequestCtx, _ *caller, b *messages.OwnerBody) {
	if s.cfg.Tailnet == nil {
		writeError(ctx, noTailnet())
		return
	}
	if err := s.cfg.Tailnet.AddOwner(b.Name); err != nil {
		writeError(ctx, &messages.Error{Code: messages.CodeBadInput, Message: trimPkg(err.Error())})
		return
	}
	s.record(&messages.AuditRecord{Action: "tailnet_owner_added", Detail: b.Name})
	s.tailnetInfo(ctx, nil, nil)
}

// removeTailnetOwner is POST /api/tailnet/owners/remove {"name": login}:
// that login's hands end at once, and its devices are signed out.
func (s *Server) removeTailnetOwner(ctx *fasthttp.RequestCtx, _ *caller, b *messages.OwnerBody) {
	if s.cfg.Tailnet == nil {
		writeError(ctx, noTailnet())
		return
	}
	if err := s.cfg.Tailnet.RemoveOwner(b.Name); err != nil {
		writeError(ctx, &messages.Error{Code: messages.CodeInternal, Message: trimPkg(err.Error())})
		return
	}
	s.record(&messages.AuditRecord{Action: "tailnet_owner_removed", Detail: b.Name})
	s.loginRemoved(b.Name)
	s.tailnetInfo(ctx, nil, nil)
}

// loginRemoved ends the hands and sockets of a login taken off the list,
// and signs its devices out.
func (s *Server) loginRemoved(login string) {
	s.hands.closeLogin(login)
	r := s.tell(&messages.ListDevices{})
	list, _ := r.Result.(messages.DeviceList)
	for _, d := range list {
		if d.Tailnet != nil && sameLogin(d.Tailnet.Login, login) {
			if s.tell(&messages.RemoveDevice{ID: d.ID}).Error == nil {
				s.sockets.closeDevice(d.ID)
				s.hands.closeDevice(d.ID)
			}
		}
	}
}

func noTailnet() *messages.Error {
	return &messages.Error{Code: messages.CodeBadInput, Message: "buddi is not on a tailnet; start it with BUDDI_TAILNET=1 (or --tailnet) first."}
}

// trimPkg is a tailnet error as the owner reads it: without the package's
// prefix, ending as a sentence does.
func trimPkg(s string) string {
	if len(s) > 9 && s[:9] == "tailnet: " {
		s = s[9:]
	}
	if s != "" && !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// tailnetLease is what a hand socket that came over the tailnet re-asks.
type tailnetLease struct {
	who    messages.TailnetIdentity
	remote string
}

// check asks WhoIs again about the socket's address.
func (l *tailnetLease) check(t Tailnet) *messages.Error {
	c, cancel := context.WithTimeout(context.Background(), whoIsWait)
	defer cancel()
	id, err := t.WhoIs(c, l.remote)
	switch {
	case err != nil:
		return &messages.Error{Code: messages.CodeTailnetRefused, Message: "Tailscale no longer vouches for this device (it was logged out or removed, or Tailscale stopped), so the hand let go; take over again from a signed-in device."}
	case !sameLogin(id.Login, l.who.Login) || id.NodeID != l.who.NodeID:
		return &messages.Error{Code: messages.CodeTailnetRefused, Message: "This device is no longer the tailnet login that took over, so the hand let go; take over again."}
	case !t.OwnerAllowed(id.Login):
		return loginGone(id.Login)
	}
	return nil
}

// loginGone is why a hand ends when its login leaves the owner's list.
func loginGone(login string) *messages.Error {
	return &messages.Error{Code: messages.CodeTailnetRefused, Message: "The tailnet login " + login + " is no longer allowed to use this buddi, so the hand let go."}
}

// mcpOver serves /mcp. Over the tailnet, the tailnet's names are checked
// here, since MCP's own guard knows only the serving address.
func (s *Server) mcpOver(ctx *fasthttp.RequestCtx) {
	if onTailnet(ctx) && s.cfg.Tailnet != nil {
		if e := s.checkHost(ctx); e != nil {
			writeError(ctx, e)
			return
		}
		if len(ctx.Request.Header.Peek("Origin")) > 0 {
			if e := s.checkOrigin(ctx); e != nil {
				writeError(ctx, e)
				return
			}
			ctx.Request.Header.Del("Origin")
		}
		ctx.Request.SetHost(s.cfg.Addr)
	}
	s.mcpRoute(ctx)
}
