package mcp

import (
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Render exposes render to the black-box fuzz test, and RenderDecoded
// the path it takes for what it does not read itself.
var (
	Render        = render
	RenderDecoded = renderDecoded
)

// Guarded reports whether the /mcp guard for addr and public lets a
// request with host and origin (none when empty) through.
func Guarded(addr, public, host, origin string) (bool, error) {
	g, err := newGuard(addr, public)
	if err != nil {
		return false, err
	}
	r := &http.Request{Host: host, Header: http.Header{}}
	if origin != "" {
		r.Header.Set("Origin", origin)
	}
	return g.check(r) == nil, nil
}

// ClientInfos lists the clientInfo each live session of h keeps.
func ClientInfos(h *Handler) []*mcp.Implementation {
	var out []*mcp.Implementation
	for ss := range h.srv.mcp.Sessions() {
		if p := ss.InitializeParams(); p != nil {
			out = append(out, p.ClientInfo)
		}
	}
	return out
}
