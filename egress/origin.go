package egress

import (
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// origin is scheme, host and port, with the port always explicit.
type origin struct {
	scheme string
	host   host
	port   uint16
}

func defaultPort(scheme string) uint16 {
	if scheme == "https" {
		return 443
	}
	return 80
}

// String serializes the origin the way browsers do: default port left out,
// IPv6 in brackets.
func (o origin) String() string {
	h := o.host.String()
	if o.host.isIP() && o.host.addr.Is6() {
		h = "[" + h + "]"
	}
	if o.port == defaultPort(o.scheme) {
		return o.scheme + "://" + h
	}
	return o.scheme + "://" + h + ":" + strconv.Itoa(int(o.port))
}

// parsePort reads a URL port: empty means the scheme's default.
func parsePort(s, scheme string) (uint16, bool) {
	if s == "" {
		return defaultPort(scheme), true
	}
	n, err := strconv.ParseUint(s, 10, 16)
	if err != nil || n == 0 {
		return 0, false
	}
	return uint16(n), true
}

// parsePreview reads one BUDDI_PREVIEW_ORIGINS entry: http or https, a
// loopback host (127.x.y.z, [::1], localhost or a name under .localhost), an
// optional port, nothing else.
func parsePreview(s string) (origin, error) {
	bad := fmt.Errorf("egress: preview origin %q is not accepted; use a loopback origin written exactly, like http://127.0.0.1:5173 or http://localhost:3000", s)
	u, err := url.Parse(s)
	if err != nil || u.Opaque != "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" ||
		(u.Path != "" && u.Path != "/") || strings.Contains(s, "*") {
		return origin{}, bad
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return origin{}, bad
	}
	h, err := parseHost(u.Hostname())
	if err != nil || h.String() != u.Hostname() || !previewHost(h) { // as written: already canonical
		return origin{}, bad
	}
	port, ok := parsePort(u.Port(), u.Scheme)
	if !ok {
		return origin{}, bad
	}
	return origin{scheme: u.Scheme, host: h, port: port}, nil
}

// previewHost accepts only hosts that can name nothing but this machine.
func previewHost(h host) bool {
	if h.isIP() {
		return (h.addr.Is4() || h.addr == netip.IPv6Loopback()) && Classify(h.addr) == ClassLoopback
	}
	return h.name == h.bare() && isLocalhost(h.name)
}
