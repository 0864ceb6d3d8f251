// Package origin decides which Host and Origin headers buddi's surfaces
// accept from a browser: an explicit list made of the address buddi serves
// on (with localhost and the loopback addresses when that address is
// loopback or unspecified) and BUDDI_WEB_PUBLIC_ORIGIN. A page on another
// origin may still make the owner's browser send requests; the Origin check
// refuses them, and the Host check refuses a page that reaches buddi under
// a DNS name of its own (DNS rebinding). /mcp and the dashboard share it.
package origin

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
)

// List is the accepted hosts and origins.
type List struct {
	port    string          // the port buddi serves on
	origins map[string]bool // accepted Origin values, lower case
	public  string          // the public origin's host[:port], lower case; may be empty
	https   bool            // the public origin is https
}

// New accepts Origin http://<addr> (and localhost and the loopback
// addresses with its port when addr is loopback or unspecified) and
// publicOrigin.
func New(addr, publicOrigin string) (List, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return List{}, fmt.Errorf("origin: the serving address %q is not host:port", addr)
	}
	l := List{port: port, origins: map[string]bool{"http://" + strings.ToLower(addr): true}}
	if ip, err := netip.ParseAddr(host); host == "localhost" || (err == nil && (ip.IsLoopback() || ip.IsUnspecified())) {
		l.origins["http://localhost:"+port] = true
		l.origins["http://127.0.0.1:"+port] = true
		l.origins["http://[::1]:"+port] = true
	}
	if publicOrigin != "" {
		u, err := url.Parse(publicOrigin)
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
			return List{}, fmt.Errorf("origin: BUDDI_WEB_PUBLIC_ORIGIN %q is not an http or https origin", publicOrigin)
		}
		l.public = strings.ToLower(u.Host)
		l.https = u.Scheme == "https"
		l.origins[strings.ToLower(u.Scheme+"://"+u.Host)] = true
	}
	return l, nil
}

// Origin reports whether a page at origin may send requests.
func (l List) Origin(origin string) bool { return l.origins[strings.ToLower(origin)] }

// Host accepts the public origin's host, and buddi's port under an IP
// address or localhost. A rebinding page reaches buddi under a DNS name of
// its own, which is neither.
func (l List) Host(host string) bool {
	host = strings.ToLower(host)
	if host == "" {
		return false
	}
	if l.public != "" && host == l.public {
		return true
	}
	name, port, err := net.SplitHostPort(host)
	if err != nil || port != l.port {
		return false
	}
	if name == "localhost" {
		return true
	}
	_, err = netip.ParseAddr(strings.Trim(name, "[]"))
	return err == nil
}

// SecureHost reports whether host is the public origin's and that origin
// is https: buddi is then reached over TLS (ended by a proxy in front of it).
func (l List) SecureHost(host string) bool {
	return l.https && strings.EqualFold(host, l.public)
}
