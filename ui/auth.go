package ui

import (
	"strings"

	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/secret"
)

// The dashboard's sign-in: a browser holds a session cookie, which names a
// signed-in device, and every write it makes carries the CSRF token the
// page got from GET /api/session and an Origin on the list. The CLI and
// other programs use the owner token instead, which no page can send on
// its own, so their requests need neither.

// Headers and cookie of the dashboard.
const (
	cookieName = "buddi_session"
	csrfHeader = "X-CSRF-Token"
)

// caller is who an owner request comes from: the owner token's holder
// (device is nil), or a signed-in device with its cookie.
type caller struct {
	device *messages.DeviceView
	cookie string
}

// owner authenticates an owner request: the owner token, or a signed-in
// device whose write carries the CSRF token and an Origin on the list,
// under a Host on the list.
func (s *Server) owner(ctx *fasthttp.RequestCtx) (*caller, *messages.Error) {
	if token, ok := bearer(ctx); ok {
		if !secret.Match(token, s.cfg.OwnerHash) {
			return nil, s.failed(ctx, OwnerLimitPrefix, &messages.Error{Code: messages.CodeUnauthorized,
				Message: "This needs the owner token (the file owner-token in the data directory) as `Authorization: Bearer <token>`."})
		}
		return &caller{}, nil
	}
	cookie := string(ctx.Request.Header.Cookie(cookieName))
	if cookie == "" {
		return nil, &messages.Error{Code: messages.CodeUnauthorized, Message: "Sign in first: open the sign-in link `buddi serve` printed (or run `buddi open` for a new one); programs send the owner token as `Authorization: Bearer <token>`."}
	}
	if e := s.checkHost(ctx); e != nil {
		return nil, e
	}
	// A read from another origin's page names that page (Chromium sends
	// no Origin on the dashboard's own reads); a write always names one.
	read := ctx.IsGet() || ctx.IsHead()
	if !read || len(ctx.Request.Header.Peek("Origin")) > 0 {
		if e := s.checkOrigin(ctx); e != nil {
			return nil, e
		}
	}
	if !read && !secret.Match(string(ctx.Request.Header.Peek(csrfHeader)), secret.Hash(csrfOf(cookie))) {
		return nil, &messages.Error{Code: messages.CodeBadCSRF, Message: "This change did not carry the dashboard's CSRF token; reload the dashboard and try again."}
	}
	d, e := s.device(cookie)
	if e != nil {
		return nil, e
	}
	if e := tailnetMatch(ctx, d); e != nil {
		return nil, e
	}
	return &caller{device: d, cookie: cookie}, nil
}

// device finds the signed-in device of a cookie.
func (s *Server) device(cookie string) (*messages.DeviceView, *messages.Error) {
	r := s.tell(&messages.FindDevice{TokenHash: secret.Hash(cookie)})
	if r.Error != nil {
		return nil, r.Error
	}
	d, ok := r.Result.(*messages.DeviceView)
	if !ok {
		return nil, &messages.Error{Code: messages.CodeInternal, Message: "buddi gave an unexpected answer."}
	}
	return d, nil
}

// csrfOf is the CSRF token of a session cookie: derived from it, so it
// needs no storage, and one-way, so the page that reads it learns nothing
// of the cookie.
func csrfOf(cookie string) string { return secret.Hash("csrf:" + cookie)[:32] }

// tailnetMatch refuses a device the tailnet signed in when its cookie
// comes from another login than the one it was signed in as.
func tailnetMatch(ctx *fasthttp.RequestCtx, d *messages.DeviceView) *messages.Error {
	if d.Tailnet == nil {
		return nil
	}
	if id := tailnetWho(ctx); id == nil || !sameLogin(id.Login, d.Tailnet.Login) {
		return &messages.Error{Code: messages.CodeUnauthorized, Message: "This browser was signed in by the tailnet login " + d.Tailnet.Login + ", and only that login may use it; open buddi over the tailnet as that login, or sign in with a link."}
	}
	return nil
}

func sameLogin(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}

// checkHost refuses a Host not on the list (DNS rebinding). Over the
// tailnet, the node's own names are the list.
func (s *Server) checkHost(ctx *fasthttp.RequestCtx) *messages.Error {
	if onTailnet(ctx) && s.cfg.Tailnet != nil {
		if s.cfg.Tailnet.Host(string(ctx.Host())) {
			return nil
		}
	} else if s.origins.Host(string(ctx.Host())) {
		return nil
	}
	return &messages.Error{Code: messages.CodeHostRefused, Message: "buddi's dashboard does not answer under the host " + messages.Clip(string(ctx.Host()), 80) +
		"; open it at its own address, or set BUDDI_WEB_PUBLIC_ORIGIN to the address you use."}
}

// checkPage refuses a request that is not from the dashboard's own page:
// a Host or an Origin not on the list.
func (s *Server) checkPage(ctx *fasthttp.RequestCtx) *messages.Error {
	if e := s.checkHost(ctx); e != nil {
		return e
	}
	return s.checkOrigin(ctx)
}

// checkOrigin refuses a request without an Origin on the list.
func (s *Server) checkOrigin(ctx *fasthttp.RequestCtx) *messages.Error {
	o := string(ctx.Request.Header.Peek("Origin"))
	if o != "" && onTailnet(ctx) && s.cfg.Tailnet != nil {
		if host, ok := strings.CutPrefix(strings.ToLower(o), "http://"); ok && s.cfg.Tailnet.Host(host) {
			return nil
		}
	} else if o != "" && s.origins.Origin(o) {
		return nil
	}
	return &messages.Error{Code: messages.CodeOriginRefused, Message: "buddi refuses this request from the page at " + messages.Clip(orNone(o), 80) +
		"; only the dashboard itself (or BUDDI_WEB_PUBLIC_ORIGIN) may make it."}
}

func orNone(s string) string {
	if s == "" {
		return "no origin"
	}
	return s
}
