package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/secret"
)

// Keys of the limiter: failed sign-ins and failed owner tokens count per
// source address only, never against the install, so nobody's failures
// can make the owner wait (and a valid credential is never limited).
const (
	SignInLimitPrefix = "signin:"
	OwnerLimitPrefix  = "owner:"
)

// failed counts a failed credential from ctx's address under prefix,
// records it on the audit trail and returns why: e, or, past the source's
// tries, that it must wait.
//
// The trail keeps every failure the limiter counts (a source's tries, then
// one per try that comes back), but of a run of refused attempts only the
// first: each of those would be a line nobody learns more from, and a
// flood of them would push the owner's own lines out of the rotated files.
func (s *Server) failed(ctx *fasthttp.RequestCtx, prefix string, e *messages.Error) *messages.Error {
	addr := ctx.RemoteIP().String()
	key := prefix + addr
	action := "sign_in_failed"
	if prefix == OwnerLimitPrefix {
		action = "owner_token_failed"
	}
	if ok, wait, first := s.cfg.Limiter.Check(key); !ok {
		if first {
			s.record(&messages.AuditRecord{Action: action, Code: messages.CodeTooManyAttempts,
				Detail: "dashboard from " + addr + ", refused until a try comes back"})
		}
		return messages.Errorf(messages.CodeTooManyAttempts,
			"Too many failed attempts from this address; wait %d seconds. A valid sign-in link from `buddi open`, or the owner token, works at once.", int(wait.Seconds())+1)
	}
	s.cfg.Limiter.Fail(key)
	s.record(&messages.AuditRecord{Action: action, Code: e.Code, Detail: "dashboard from " + addr})
	return e
}

// record adds a control line, stamped now, to the audit trail.
func (s *Server) record(r *messages.AuditRecord) {
	r.At, r.Kind = s.cfg.Now().UTC(), messages.AuditControl
	s.cfg.Record(r)
}

// deviceTTL is how long a sign-in lasts.
const deviceTTL = 30 * 24 * time.Hour

// SignInLink makes a one-time link that signs a browser in, on the public
// origin when there is one, else on the serving address.
func (s *Server) SignInLink() messages.SignInLink {
	token, exp := s.links.add()
	base := "http://" + s.cfg.Addr
	if s.cfg.PublicOrigin != "" {
		base = strings.TrimRight(s.cfg.PublicOrigin, "/")
	}
	return messages.SignInLink{URL: base + "/#/signin/" + token, Expires: exp}
}

// session serves /api/session (sign in with a link, who am I) and
// /api/events (the events socket).
func (s *Server) session(ctx *fasthttp.RequestCtx, path string) {
	switch {
	case path == "/api/events" && ctx.IsGet():
		s.events(ctx)
	case path == "/api/session" && ctx.IsPost():
		s.signIn(ctx)
	case path == "/api/session" && ctx.IsGet():
		c, e := s.owner(ctx)
		if id := tailnetWho(ctx); e != nil && id != nil && s.cfg.Tailnet.OwnerAllowed(id.Login) &&
			(e.Code == messages.CodeUnauthorized || e.Code == messages.CodeSignInExpired) {
			s.tailnetSignIn(ctx, id)
			return
		}
		if e != nil {
			writeError(ctx, e)
			return
		}
		if c.device == nil {
			writeError(ctx, &messages.Error{Code: messages.CodeBadInput, Message: "The owner token is not a signed-in browser; this route is the dashboard's."})
			return
		}
		writeOK(ctx, &messages.Me{Device: *c.device, CSRF: csrfOf(c.cookie)})
	default:
		writeError(ctx, &messages.Error{Code: messages.CodeMethodNotAllowed, Message: "Use GET or POST on /api/session, and GET on /api/events."})
	}
}

// signIn spends a one-time link's token for a session cookie. A valid
// link always signs in; only failures are counted, per address, and a
// source past its tries is told to wait without its token being looked at.
func (s *Server) signIn(ctx *fasthttp.RequestCtx) {
	if e := s.checkPage(ctx); e != nil {
		writeError(ctx, e)
		return
	}
	b, e := messages.DecodeOwnerBody(ctx.PostBody())
	if e != nil {
		writeError(ctx, e)
		return
	}
	if b.Token == "" || len(b.Token) > 200 || !s.links.spend(b.Token) {
		writeError(ctx, s.failed(ctx, SignInLimitPrefix, &messages.Error{Code: messages.CodeSignInExpired,
			Message: "This sign-in link is not valid: it was used already, has expired or is incomplete; run `buddi open` on the computer buddi runs on for a new one."}))
		return
	}
	// Over the tailnet, the first login to sign in with a link from the
	// host is the owner's: it goes on the list (confirmed once).
	id := tailnetWho(ctx)
	if id != nil && len(s.cfg.Tailnet.OwnerLogins()) == 0 {
		if err := s.cfg.Tailnet.AddOwner(id.Login); err != nil {
			writeError(ctx, &messages.Error{Code: messages.CodeInternal, Message: trimPkg(err.Error())})
			return
		}
		s.record(&messages.AuditRecord{Action: "tailnet_owner_added", Detail: id.Login + " (the first sign-in on the tailnet)"})
	}
	cookie, dev, e := s.addDevice(string(ctx.UserAgent()), id)
	if e != nil {
		writeError(ctx, e)
		return
	}
	s.setCookie(ctx, cookie, deviceTTL)
	dev.Current = true
	writeOK(ctx, &messages.Me{Device: dev, CSRF: csrfOf(cookie)})
}

// addDevice signs a browser in: a new cookie and the device it names,
// with the tailnet identity that signed it in, if any.
func (s *Server) addDevice(userAgent string, id *messages.TailnetIdentity) (string, messages.DeviceView, *messages.Error) {
	cookie := secret.New("bd_")
	now := s.cfg.Now().UTC()
	label := deviceLabel(userAgent)
	if id != nil {
		label = id.Node + " (" + label + ", tailnet " + id.Login + ")"
	}
	dev := messages.DeviceView{ID: secret.New("")[:12], Label: label,
		Created: now, Expires: now.Add(deviceTTL), LastSeen: now, Tailnet: id}
	if r := s.tell(&messages.AddDevice{Device: dev, TokenHash: secret.Hash(cookie)}); r.Error != nil {
		return "", dev, r.Error
	}
	return cookie, dev, nil
}

// setCookie sets (or, with ttl 0, clears) the session cookie: HttpOnly,
// SameSite=Strict, and Secure when buddi is reached over TLS.
func (s *Server) setCookie(ctx *fasthttp.RequestCtx, value string, ttl time.Duration) {
	var c fasthttp.Cookie
	c.SetKey(cookieName)
	c.SetValue(value)
	c.SetPath("/")
	c.SetHTTPOnly(true)
	c.SetSameSite(fasthttp.CookieSameSiteStrictMode)
	c.SetSecure(ctx.IsTLS() || s.origins.SecureHost(string(ctx.Host())))
	if ttl > 0 {
		c.SetMaxAge(int(ttl.Seconds()))
	} else {
		c.SetMaxAge(-1)
	}
	ctx.Response.Header.SetCookie(&c)
}

// deviceLabel names a browser by its user agent, for the list of devices.
func deviceLabel(ua string) string {
	browser, system := "A browser", ""
	for _, b := range []struct{ token, name string }{{"Edg/", "Edge"}, {"Firefox/", "Firefox"},
		{"Chrome/", "Chrome"}, {"Safari/", "Safari"}} {
		if strings.Contains(ua, b.token) {
			browser = b.name
			break
		}
	}
	for _, o := range []struct{ token, name string }{{"iPhone", "iPhone"}, {"iPad", "iPad"},
		{"Android", "Android"}, {"Mac OS X", "macOS"}, {"Windows", "Windows"}, {"Linux", "Linux"}} {
		if strings.Contains(ua, o.token) {
			system = o.name
			break
		}
	}
	if system == "" {
		return browser
	}
	return fmt.Sprintf("%s on %s", browser, system)
}
