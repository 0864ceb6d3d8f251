package mcp

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"

	"github.com/buddi-dev/buddi/messages"
)

// guard refuses requests a web page could make the owner's browser send
// (the transport's security rules): an Origin other than buddi's own, and,
// against DNS rebinding, a Host that names buddi by a name it does not know.
type guard struct {
	port    string          // the port buddi serves on
	origins map[string]bool // accepted Origin values, lower case
	public  string          // the public origin's host[:port], lower case; may be empty
}

// newGuard accepts Origin http://<addr> (and http://localhost:<port> when
// addr is a loopback or unspecified address) and publicOrigin.
func newGuard(addr, publicOrigin string) (guard, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return guard{}, fmt.Errorf("mcp: the serving address %q is not host:port", addr)
	}
	g := guard{port: port, origins: map[string]bool{"http://" + strings.ToLower(addr): true}}
	if ip, err := netip.ParseAddr(host); host == "localhost" || (err == nil && (ip.IsLoopback() || ip.IsUnspecified())) {
		g.origins["http://localhost:"+port] = true
		g.origins["http://127.0.0.1:"+port] = true
		g.origins["http://[::1]:"+port] = true
	}
	if publicOrigin != "" {
		u, err := url.Parse(publicOrigin)
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
			return guard{}, fmt.Errorf("mcp: BUDDI_WEB_PUBLIC_ORIGIN %q is not an http or https origin", publicOrigin)
		}
		g.public = strings.ToLower(u.Host)
		g.origins[strings.ToLower(u.Scheme+"://"+u.Host)] = true
	}
	return g, nil
}

// check returns why r is refused, or nil.
func (g guard) check(r *http.Request) *messages.Error {
	if !g.hostOK(strings.ToLower(r.Host)) {
		return &messages.Error{Code: CodeHostRefused, Message: fmt.Sprintf(
			"buddi does not answer MCP for the host %q; connect to its own address, or set BUDDI_WEB_PUBLIC_ORIGIN to the address you use.", clip(r.Host))}
	}
	if origins := r.Header.Values("Origin"); len(origins) > 0 {
		if len(origins) > 1 || !g.origins[strings.ToLower(origins[0])] {
			return &messages.Error{Code: CodeOriginRefused, Message: fmt.Sprintf(
				"buddi refuses MCP requests from web pages at %q; MCP clients send no Origin, and BUDDI_WEB_PUBLIC_ORIGIN adds one that is allowed.", clip(origins[0]))}
		}
	}
	return nil
}

// HostOK reports whether host (a request's Host header) names buddi: its
// own address, localhost on its port, or the public origin's host. The
// HTTP surface's other unauthenticated routes check it too.
func (h *Handler) HostOK(host string) bool { return h.guard.hostOK(strings.ToLower(host)) }

// hostOK accepts the public origin's host, and buddi's port under an IP
// address or localhost. A rebinding page reaches buddi under a DNS name of
// its own, which is neither.
func (g guard) hostOK(host string) bool {
	if host == "" {
		return false
	}
	if g.public != "" && host == g.public {
		return true
	}
	name, port, err := net.SplitHostPort(host)
	if err != nil || port != g.port {
		return false
	}
	if name == "localhost" {
		return true
	}
	_, err = netip.ParseAddr(strings.Trim(name, "[]"))
	return err == nil
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
