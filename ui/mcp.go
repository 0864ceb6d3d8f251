package ui

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttpadaptor"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/secret"
	"github.com/buddi-dev/buddi/ui/mcp"
)

// mcpBackend runs the calls of MCP over HTTP (/mcp) down the HTTP API's own
// path, so both reach the same actors with the same checks.
type mcpBackend struct{ s *Server }

var _ mcp.Backend = mcpBackend{}

func (b mcpBackend) Identify(_ context.Context, token string) (string, error) {
	c, cancel := deadline(ownerDeadline)
	defer cancel()
	agent, e := b.s.cfg.Actors.Identify(c, secret.Hash(token))
	if e != nil {
		return "", e
	}
	return agent, nil
}

func (b mcpBackend) Call(_ context.Context, token, tool, conv string, input json.RawMessage) (json.RawMessage, error) {
	tr, _ := b.s.runTool(secret.Hash(token), tool, conv, input)
	if tr.Error != nil {
		return nil, tr.Error
	}
	raw, e := encodeAnswer(tr.Result)
	messages.FreeText(tr.Result) // encoded into raw: the session's block goes back
	if e != nil {
		return nil, e
	}
	return raw, nil
}

// newMCP builds the /mcp route: the SDK's net/http handler behind
// fasthttp's adaptor. The handler answers in plain JSON, written once and
// never flushed, so the adaptor sends each answer as one ordinary response
// (see mcp.NewHandler for why there are no event streams).
func (s *Server) newMCP() (*mcp.Handler, fasthttp.RequestHandler, error) {
	h, err := mcp.NewHandler(mcp.HTTPConfig{Backend: mcpBackend{s}, Addr: s.cfg.Addr,
		PublicOrigin: s.cfg.PublicOrigin, Version: s.cfg.Version, Log: s.cfg.Log, Reach: s.cfg.Reach})
	if err != nil {
		return nil, nil, err
	}
	return h, fasthttpadaptor.NewFastHTTPHandler(detached(h)), nil
}

// detached gives next a request that owns its memory. fasthttp's adaptor
// lends the header values, host, method and URI from the connection's
// buffer, which the next request on it writes over; the MCP server keeps
// some of them past the request (the Buddi-Conversation header names the
// conversation a task lives in), so they are copied first.
func detached(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		header := make(http.Header, len(r.Header))
		for k, vs := range r.Header {
			own := make([]string, len(vs))
			for i, v := range vs {
				own[i] = strings.Clone(v)
			}
			header[strings.Clone(k)] = own
		}
		r.Header = header
		r.Host, r.Method, r.RequestURI = strings.Clone(r.Host), strings.Clone(r.Method), strings.Clone(r.RequestURI)
		if r.URL != nil {
			u := *r.URL
			u.Scheme, u.Opaque, u.Host = strings.Clone(u.Scheme), strings.Clone(u.Opaque), strings.Clone(u.Host)
			u.Path, u.RawPath, u.RawQuery = strings.Clone(u.Path), strings.Clone(u.RawPath), strings.Clone(u.RawQuery)
			u.Fragment, u.RawFragment = strings.Clone(u.Fragment), strings.Clone(u.RawFragment)
			r.URL = &u
		}
		next.ServeHTTP(w, r)
	})
}
