package ui

import (
	"time"

	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/messages"
)

// health serves GET /healthz: version, uptime, mode and whether stopped.
func (s *Server) health(ctx *fasthttp.RequestCtx) {
	res, e := s.ask(&messages.Health{}, 5*time.Second)
	if e != nil {
		writeError(ctx, fasthttp.StatusServiceUnavailable, e.Code, e.Message)
		return
	}
	h, _ := res.(*messages.HealthInfo)
	if h == nil {
		h = &messages.HealthInfo{}
	}
	writeJSON(ctx, fasthttp.StatusOK, map[string]any{
		"ok": true, "version": s.cfg.Version, "uptimeSeconds": int(time.Since(s.cfg.Started).Seconds()),
		"mode": h.Mode, "stopped": h.Stopped, "sessions": h.Sessions, "restarts": h.Restarts,
	})
}
