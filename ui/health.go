package ui

import (
	"time"

	"github.com/valyala/fasthttp"
)

// health serves GET /healthz: version, uptime, mode and whether stopped.
func (s *Server) health(ctx *fasthttp.RequestCtx) {
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
