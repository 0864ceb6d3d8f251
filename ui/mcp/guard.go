package mcp

import (
	"fmt"
	"net/http"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/origin"
)

// guard refuses requests a web page could make the owner's browser send
// (the transport's security rules): an Origin other than buddi's own, and,
// against DNS rebinding, a Host that names buddi by a name it does not know.
type guard struct{ list origin.List }

// newGuard accepts Origin http://<addr> (and http://localhost:<port> when
// addr is a loopback or unspecified address) and publicOrigin.
func newGuard(addr, publicOrigin string) (guard, error) {
	l, err := origin.New(addr, publicOrigin)
	if err != nil {
		return guard{}, fmt.Errorf("mcp: %w", err)
	}
	return guard{list: l}, nil
}

// check returns why r is refused, or nil.
func (g guard) check(r *http.Request) *messages.Error {
	if !g.list.Host(r.Host) {
		return &messages.Error{Code: CodeHostRefused, Message: fmt.Sprintf(
			"buddi does not answer MCP for the host %q; connect to its own address, or set BUDDI_WEB_PUBLIC_ORIGIN to the address you use.", messages.Clip(r.Host, 80))}
	}
	if origins := r.Header.Values("Origin"); len(origins) > 0 {
		if len(origins) > 1 || !g.list.Origin(origins[0]) {
			return &messages.Error{Code: CodeOriginRefused, Message: fmt.Sprintf(
				"buddi refuses MCP requests from web pages at %q; MCP clients send no Origin, and BUDDI_WEB_PUBLIC_ORIGIN adds one that is allowed.", messages.Clip(origins[0], 80))}
		}
	}
	return nil
}

// HostOK reports whether host (a request's Host header) names buddi: its
// own address, localhost on its port, or the public origin's host. The
// HTTP surface's other unauthenticated routes check it too.
func (h *Handler) HostOK(host string) bool { return h.guard.list.Host(host) }
