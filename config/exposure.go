package config

import (
	"net"
	"net/netip"
	"strconv"
	"strings"
)

// How serve is reached: its address, TLS and the tailnet, and what it
// says is exposed where.

// CheckAddr accepts host:port where host is an IP address or localhost.
func CheckAddr(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return Invalid("the address %q is not host:port; use for example 127.0.0.1:7777", addr)
	}
	p, err := strconv.Atoi(port)
	if err != nil || p < 0 || p > 65535 {
		return Invalid("the port in %q is not a number from 0 to 65535", addr)
	}
	if host == "localhost" {
		return nil
	}
	if _, err := netip.ParseAddr(host); err != nil {
		return Invalid("the host in %q is not an IP address; use 127.0.0.1 or another address of this machine", addr)
	}
	return nil
}

// Loopback reports whether addr (host:port) is on this machine's loopback
// only: localhost, 127.0.0.0/8 or ::1. An unspecified address (0.0.0.0,
// [::]) is every interface, and not loopback.
func Loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// remoteFromEnv reads how buddi is reached from elsewhere: the opt-out of
// TLS, TLS files and the tailnet.
func (c *Config) remoteFromEnv(getenv func(string) string) (err error) {
	if c.AllowRemote, err = Bool("BUDDI_ALLOW_REMOTE", getenv("BUDDI_ALLOW_REMOTE")); err != nil {
		return err
	}
	c.TLSCert, c.TLSKey = strings.TrimSpace(getenv("BUDDI_TLS_CERT")), strings.TrimSpace(getenv("BUDDI_TLS_KEY"))
	if c.Tailnet, err = Bool("BUDDI_TAILNET", getenv("BUDDI_TAILNET")); err != nil {
		return err
	}
	c.TailnetAuthKey = strings.TrimSpace(or(getenv("BUDDI_TAILNET_AUTHKEY"), getenv("TS_AUTHKEY")))
	c.TailnetHostname = strings.TrimSpace(or(getenv("BUDDI_TAILNET_HOSTNAME"), DefaultTailnetHostname))
	c.TailnetControl = strings.TrimSpace(getenv("BUDDI_TAILNET_CONTROL"))
	c.TailnetOwners, err = TailnetLogins("BUDDI_TAILNET_OWNERS", getenv("BUDDI_TAILNET_OWNERS"))
	return err
}

// TailnetLogins reads a list of tailnet logins separated by commas, as
// Tailscale shows them (lower-cased; empty entries skipped).
func TailnetLogins(name, v string) ([]string, error) {
	var out []string
	for _, l := range strings.Split(v, ",") {
		l = strings.ToLower(strings.TrimSpace(l))
		switch {
		case l == "":
		case len(l) > 200 || strings.ContainsAny(l, " \t\r\n") || !strings.Contains(l, "@"):
			return nil, Invalid("%s: %q is not a tailnet login; give logins as Tailscale shows them, separated by commas, like you@example.com", name, l)
		default:
			out = append(out, l)
		}
	}
	return out, nil
}

// tailnetRanges are the addresses Tailscale gives its nodes: traffic to
// them is WireGuard's, encrypted end to end.
var tailnetRanges = []netip.Prefix{netip.MustParsePrefix("100.64.0.0/10"), netip.MustParsePrefix("fd7a:115c:a1e0::/48")}

// TailnetAddr reports whether addr (host:port) is a tailnet address.
func TailnetAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	for _, p := range tailnetRanges {
		if p.Contains(ip.Unmap()) {
			return true
		}
	}
	return false
}

// Binding is how serve's own address is exposed.
type Binding int

// Bindings, from the most private.
const (
	BindLoopback  Binding = iota // this machine only
	BindTailnet                  // a tailnet address: WireGuard encrypts it
	BindTLS                      // beyond loopback, over TLS
	BindPlaintext                // beyond loopback, in clear: --allow-remote
	BindRefused                  // beyond loopback, with neither
)

// Binding says how c.Addr would be exposed.
func (c *Config) Binding() Binding {
	switch {
	case Loopback(c.Addr):
		return BindLoopback
	case TailnetAddr(c.Addr):
		return BindTailnet
	case c.TLSCert != "":
		return BindTLS
	case c.AllowRemote:
		return BindPlaintext
	}
	return BindRefused
}

// Scheme is the scheme serve speaks on c.Addr: https with TLS files.
func (c *Config) Scheme() string {
	if c.TLSCert != "" {
		return "https"
	}
	return "http"
}

// CheckServeAddr refuses to serve beyond loopback (and beyond the tailnet)
// in clear unless it is asked for: agent and owner tokens would travel in
// clear over plain HTTP.
func (c *Config) CheckServeAddr() error {
	if (c.TLSCert == "") != (c.TLSKey == "") {
		return Invalid("--tls-cert and --tls-key (BUDDI_TLS_CERT, BUDDI_TLS_KEY) go together; give both PEM files, or neither")
	}
	if c.Binding() != BindRefused {
		return nil
	}
	return Invalid("%s is reachable from other machines, and tokens would cross the network in clear; serve on 127.0.0.1 (with BUDDI_TAILNET=1 to reach it over your tailnet), give a certificate with --tls-cert and --tls-key, or pass --allow-remote to serve plain HTTP anyway", c.Addr)
}

// Exposure says, one line each, what serve exposes where.
func (c *Config) Exposure() []string {
	var out []string
	url := c.Scheme() + "://" + c.Addr
	switch c.Binding() {
	case BindLoopback:
		out = append(out, url+": this machine only")
	case BindTailnet:
		out = append(out, url+": the tailnet address, encrypted by WireGuard")
	case BindTLS:
		out = append(out, url+": beyond this machine, over TLS ("+c.TLSCert+")")
	case BindPlaintext:
		out = append(out, url+": beyond this machine, in clear (--allow-remote)")
	default:
		out = append(out, url+": beyond this machine, in clear, which serve refuses without TLS or --allow-remote")
	}
	if c.Tailnet {
		out = append(out, "the tailnet node "+c.TailnetHostname+": members of your tailnet, each request attributed by Tailscale's WhoIs")
	}
	return out
}
