package ui

import (
	"net"

	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/metrics"
)

// registerMetrics adds the surface's own counts to /metrics.
func (s *Server) registerMetrics() {
	s.cfg.Metrics.GaugeFunc("buddi_dashboard_connections", "Open events sockets of signed-in dashboards.", nil,
		func(emit metrics.Emit) { emit(float64(s.sockets.count.Load())) })
	s.cfg.Metrics.GaugeFunc("buddi_hand_connections", "Open remote-hand sockets (the owner driving a taken-over page).", nil,
		func(emit metrics.Emit) { emit(float64(s.handCount.Load())) })
}

// metrics serves GET /metrics in the Prometheus text format: to a scraper
// on this machine that came through no proxy, to the owner token, and to a
// signed-in dashboard.
func (s *Server) metrics(ctx *fasthttp.RequestCtx) {
	e := s.checkHost(ctx)
	if e == nil && !localPeer(ctx) {
		_, e = s.owner(ctx)
	}
	if e != nil {
		writeError(ctx, e)
		return
	}
	ctx.SetContentType("text/plain; version=0.0.4; charset=utf-8")
	ctx.Response.Header.Set("Cache-Control", "no-store")
	if _, err := s.cfg.Metrics.WriteTo(ctx); err != nil {
		s.cfg.Log.Warn("writing /metrics failed", "err", err)
	}
}

// localPeer reports whether the request comes from this machine directly:
// a loopback peer that names no proxy hop.
func localPeer(ctx *fasthttp.RequestCtx) bool {
	ip, ok := ctx.RemoteAddr().(*net.TCPAddr)
	if !ok || !ip.IP.IsLoopback() {
		return false
	}
	for _, h := range []string{"X-Forwarded-For", "Forwarded", "X-Real-Ip"} {
		if len(ctx.Request.Header.Peek(h)) > 0 {
			return false
		}
	}
	return true
}
