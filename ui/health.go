package ui

import (
	"time"

	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/secret"
)

// health serves GET /healthz. Anyone reaching buddi under its own name
// learns that it answers and its version; the owner token adds the rest
// (uptime, mode, Stop, sessions, restarts). A Host that is not buddi's own
// (a page rebinding a DNS name of its own to buddi) is refused.
func (s *Server) health(ctx *fasthttp.RequestCtx) {
	if !s.mcp.HostOK(string(ctx.Host())) {
		writeError(ctx, &messages.Error{Code: messages.CodeHostRefused,
			Message: "buddi does not answer for this host name; use its own address, or set BUDDI_WEB_PUBLIC_ORIGIN to the address you use."})
		return
	}
	if token, ok := bearer(ctx); !ok || !secret.Match(token, s.cfg.OwnerHash) {
		writeJSON(ctx, fasthttp.StatusOK, &messages.Liveness{OK: true, Version: s.cfg.Version})
		return
	}
	c, cancel := deadline(5 * time.Second)
	defer cancel()
	h, e := s.cfg.Actors.Health(c)
	if e != nil {
		writeJSON(ctx, fasthttp.StatusServiceUnavailable, envelope{Error: e})
		return
	}
	h.OK, h.Version = true, s.cfg.Version
	h.UptimeSeconds = int(time.Since(s.cfg.Started).Seconds())
	writeJSON(ctx, fasthttp.StatusOK, h)
}
