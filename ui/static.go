package ui

import (
	"bytes"

	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/messages"
)

// contentPolicy keeps the dashboard's page to its own script, style,
// images and socket: no inline script, no other origin, no framing.
const contentPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// static serves the dashboard's page and its files, gzipped when the
// browser accepts it, under a Host on the list only.
func (s *Server) static(ctx *fasthttp.RequestCtx, path string) {
	a := s.assets[path]
	if path == "/index.html" {
		a = s.assets["/"]
	}
	if a == nil {
		writeError(ctx, &messages.Error{Code: messages.CodeNotFound, Message: "There is nothing at " + messages.Clip(path, 80) +
			"; the dashboard is at /, the API under /api/ and MCP at /mcp."})
		return
	}
	if !ctx.IsGet() && !ctx.IsHead() {
		writeError(ctx, &messages.Error{Code: messages.CodeMethodNotAllowed, Message: "The dashboard's files are read with GET."})
		return
	}
	if e := s.checkHost(ctx); e != nil {
		writeError(ctx, e)
		return
	}
	h := &ctx.Response.Header
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", contentPolicy)
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", a.ETag)
	h.Set("Vary", "Accept-Encoding")
	h.SetContentType(a.Type)
	if bytes.Equal(ctx.Request.Header.Peek("If-None-Match"), []byte(a.ETag)) {
		ctx.SetStatusCode(fasthttp.StatusNotModified)
		return
	}
	if ctx.Request.Header.HasAcceptEncoding("gzip") {
		h.Set("Content-Encoding", "gzip")
		ctx.SetBody(a.Gzip)
		return
	}
	ctx.SetBody(a.Body)
}
