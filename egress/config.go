package egress

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"time"
)

// Resolver looks names up. *net.Resolver satisfies it.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

var _ Resolver = (*net.Resolver)(nil)

// Default timeouts, used where a Config leaves one at zero.
const (
	DefaultDialTimeout      = 10 * time.Second
	DefaultHandshakeTimeout = 15 * time.Second
	DefaultIdleTimeout      = 2 * time.Minute
)

// dialFunc dials one already-checked address. Only tests replace it.
type dialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// Config is the installation's egress settings. The zero value allows the
// public web on ports 80 and 443 and nothing else.
type Config struct {
	Hosts            []string      // BUDDI_BROWSER_HOSTS: exact hosts navigations may reach; empty means any public host
	PreviewOrigins   []string      // BUDDI_PREVIEW_ORIGINS: loopback origins always reachable, exactly as written
	AirGap           bool          // BUDDI_AIR_GAP: nothing but preview origins
	Self             []string      // buddi's own listening addresses (host:port): never reachable
	Resolver         Resolver      // nil means net.DefaultResolver
	DialTimeout      time.Duration // per lookup, and per outbound connect
	HandshakeTimeout time.Duration // from accept to the SOCKS reply, lookup and dial included
	IdleTimeout      time.Duration // no bytes either way for this long closes a relay
	Logger           *slog.Logger  // nil means slog.Default()
	// Known is the values no URL may carry (the owner's secrets, values
	// masked from pages); nil means only the detectors look at URLs.
	Known *Known

	dial dialFunc
}

// ConfigFromEnv reads BUDDI_BROWSER_HOSTS, BUDDI_PREVIEW_ORIGINS and
// BUDDI_AIR_GAP. A bad value is an error of one sentence that names it.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	cfg := Config{
		Hosts:          splitList(getenv("BUDDI_BROWSER_HOSTS")),
		PreviewOrigins: splitList(getenv("BUDDI_PREVIEW_ORIGINS")),
	}
	switch v := strings.TrimSpace(getenv("BUDDI_AIR_GAP")); strings.ToLower(v) {
	case "", "0", "false", "off", "no":
	case "1", "true", "on", "yes":
		cfg.AirGap = true
	default:
		return Config{}, fmt.Errorf("egress: BUDDI_AIR_GAP=%q is not accepted; use 1 to turn air-gap on or 0 to leave it off", v)
	}
	if _, err := compile(cfg); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func (c Config) withDefaults() Config {
	if c.Resolver == nil {
		c.Resolver = net.DefaultResolver
	}
	if c.DialTimeout <= 0 {
		c.DialTimeout = DefaultDialTimeout
	}
	if c.HandshakeTimeout <= 0 {
		c.HandshakeTimeout = DefaultHandshakeTimeout
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = DefaultIdleTimeout
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c
}

// rules is a validated Config: what Policy and Guard both check against.
type rules struct {
	hosts   map[string]bool // canonical host names; nil means any
	preview []origin
	airGap  bool
	self    selfSet // buddi's own addresses
	known   *Known
}

func compile(c Config) (*rules, error) {
	r := &rules{airGap: c.AirGap, known: c.Known}
	for _, s := range c.Hosts {
		h, err := parseHost(s)
		if err != nil || strings.ContainsAny(s, ":/@*") {
			return nil, fmt.Errorf("egress: BUDDI_BROWSER_HOSTS entry %q is not a host name; list exact host names separated by commas, like example.com,accounts.example.com", s)
		}
		if r.hosts == nil {
			r.hosts = map[string]bool{}
		}
		r.hosts[h.String()] = true
	}
	for _, s := range c.PreviewOrigins {
		o, err := parsePreview(s)
		if err != nil {
			return nil, err
		}
		r.preview = append(r.preview, o)
	}
	for _, s := range c.Self {
		a, err := parseSelf(s)
		if err != nil {
			return nil, err
		}
		r.self.add(a)
	}
	return r, nil
}

// isPreview reports whether a URL's origin is a preview origin, with the host
// spelled as the preview is (letter case aside): http://0x7f.1:5173 is the
// same socket as http://127.0.0.1:5173 to a browser, but not as written.
func (r *rules) isPreview(o origin, written string) bool {
	if r.self.hostIs(o.host, o.port) {
		return false
	}
	for _, p := range r.preview {
		if p == o && strings.EqualFold(written, p.host.String()) {
			return true
		}
	}
	return false
}

// previewPair reports whether a SOCKS destination (a name as sent, or an
// address's text form) and port are a preview origin's host and port exactly
// as written. The guard cannot see the scheme.
func (r *rules) previewPair(label string, port uint16) bool {
	for _, p := range r.preview {
		if p.host.String() == label && p.port == port {
			return true
		}
	}
	return false
}

// nameRefusal is the guard's reason for refusing a name before looking it
// up, or "": on the never-automate list, outside BUDDI_BROWSER_HOSTS, or
// anything under air-gap. A preview origin's host is never refused here;
// the port decides it later.
func (r *rules) nameRefusal(h host) string {
	if h.isIP() || r.previewHost(h.String()) {
		return ""
	}
	if _, ok := neverAutomate(h.bare()); ok {
		return "never_automate"
	}
	if r.airGap {
		return "air_gap"
	}
	if !r.listed(h.String()) {
		return "host_not_allowed"
	}
	return ""
}

// listed reports whether a destination as the client sent it (a name, or
// an address's text form) is in BUDDI_BROWSER_HOSTS; every destination is
// when the list is empty.
func (r *rules) listed(label string) bool {
	if r.hosts == nil {
		return true
	}
	h, err := parseHost(label)
	return err == nil && r.hosts[h.String()]
}

// previewHost reports whether label is a preview origin's host as written.
func (r *rules) previewHost(label string) bool {
	for _, p := range r.preview {
		if p.host.String() == label {
			return true
		}
	}
	return false
}
