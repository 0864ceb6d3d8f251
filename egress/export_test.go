package egress

import (
	"context"
	"net"
)

// WithDial replaces the guard's dialler, the seam the rebinding test watches.
func WithDial(cfg Config, d func(ctx context.Context, network, addr string) (net.Conn, error)) Config {
	cfg.dial = d
	return cfg
}

// CanonicalHost exposes the host canonicalizer to the fuzz targets.
func CanonicalHost(s string) (string, error) {
	h, err := parseHost(s)
	return h.String(), err
}

// NameRefusal exposes what the guard refuses a host for before it dials
// anything: a name before its lookup, an address by the host list.
func NameRefusal(cfg Config, host string) string {
	r, err := compile(cfg)
	if err != nil {
		panic(err)
	}
	h, err := parseHost(host)
	switch {
	case err != nil:
		return "bad_host"
	case h.isIP() && !r.listed(h.String()):
		return "host_not_allowed"
	}
	return r.nameRefusal(h)
}
