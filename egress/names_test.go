package egress_test

import (
	"net/netip"
	"testing"

	"github.com/buddi-dev/buddi/egress"
)

// The guard applies the URL rules that need no address by name, before
// any lookup: a never-automate host, a host outside BUDDI_BROWSER_HOSTS,
// and under air-gap anything but a preview origin. A popup's first request
// or a refused frame's preconnect therefore reaches neither DNS nor the
// server, even when the name would resolve to a public address.
func TestGuardRefusesNamesByTheURLRules(t *testing.T) {
	site := startEcho(t)
	cases := map[string]struct {
		cfg    egress.Config
		target string
		reason string
	}{
		"never-automate":        {egress.Config{}, "www.paypal.com:443", "never_automate"},
		"never-automate listed": {egress.Config{Hosts: []string{"www.paypal.com"}}, "www.paypal.com:443", "never_automate"},
		"outside the host list": {egress.Config{Hosts: []string{"docs.example.org"}}, "evil.example.net:443", "host_not_allowed"},
		"an unlisted address":   {egress.Config{Hosts: []string{"docs.example.org"}}, "93.184.215.14:443", "host_not_allowed"},
		"air-gap":               {egress.Config{AirGap: true}, "docs.example.org:443", "air_gap"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			res := &scriptedResolver{answers: [][]netip.Addr{ips("93.184.215.14")}}
			rec := &recordingDialer{to: site.addr()}
			cfg := c.cfg
			cfg.Resolver = res
			g, _ := startGuard(t, egress.WithDial(cfg, rec.dial))
			if _, err := socksDial(t, g, c.target); err == nil {
				t.Fatalf("%s was reached", c.target)
			}
			if n := g.Stats().Refused[c.reason]; n != 1 {
				t.Errorf("Refused = %v, want one %s", g.Stats().Refused, c.reason)
			}
			if len(res.calls) != 0 || len(rec.list()) != 0 {
				t.Errorf("looked up %v and dialed %v for a refused name", res.calls, rec.list())
			}
		})
	}
	if n := site.accepted.Load(); n != 0 {
		t.Errorf("the server received %d connections", n)
	}
}

// A listed host still goes through: the rules by name refuse only what
// CheckURL refuses.
func TestGuardAllowsListedNames(t *testing.T) {
	site := startEcho(t)
	res := &scriptedResolver{answers: [][]netip.Addr{ips("93.184.215.14")}}
	rec := &recordingDialer{to: site.addr()}
	g, _ := startGuard(t, egress.WithDial(egress.Config{Resolver: res, Hosts: []string{"Docs.Example.org"}}, rec.dial))
	c, err := socksDial(t, g, "docs.example.org:443")
	if err != nil {
		t.Fatalf("a listed host was refused: %v (%v)", err, g.Stats().Refused)
	}
	roundTrip(t, c, "x")
	_ = c.Close()
}
