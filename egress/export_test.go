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
