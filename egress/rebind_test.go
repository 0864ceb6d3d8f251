package egress_test

import (
	"context"
	"net"
	"net/netip"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/egress"
)

// scriptedResolver answers each lookup with the next answer in its script.
type scriptedResolver struct {
	mu      sync.Mutex
	answers [][]netip.Addr
	calls   []string
}

func (r *scriptedResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, host)
	if len(r.answers) == 0 {
		return nil, nil
	}
	a := r.answers[0]
	r.answers = r.answers[1:]
	return a, nil
}

// recordingDialer stands in for the network at the guard's dial seam: it
// records every address the guard dials and connects each to a local server.
type recordingDialer struct {
	mu     sync.Mutex
	dialed []string
	to     string
}

func (d *recordingDialer) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	d.mu.Lock()
	d.dialed = append(d.dialed, addr)
	d.mu.Unlock()
	var nd net.Dialer
	return nd.DialContext(ctx, network, d.to)
}

func (d *recordingDialer) list() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.dialed)
}

func ips(s ...string) []netip.Addr {
	var out []netip.Addr
	for _, x := range s {
		out = append(out, netip.MustParseAddr(x))
	}
	return out
}

func TestGuardRebinding(t *testing.T) {
	stand := startEcho(t) // plays the public web server
	res := &scriptedResolver{answers: [][]netip.Addr{
		ips("93.184.215.14"), // first answer: public
		ips("127.0.0.1"),     // then the name rebinds to loopback
	}}
	rec := &recordingDialer{to: stand.addr()}
	g, _ := startGuard(t, egress.WithDial(egress.Config{Resolver: res}, rec.dial))

	c, err := socksDial(t, g, "rebind.example.com:80")
	if err != nil {
		t.Fatalf("first CONNECT: %v", err)
	}
	roundTrip(t, c, "hello")
	c.Close()
	if got := rec.list(); !slices.Equal(got, []string{"93.184.215.14:80"}) {
		t.Fatalf("dialed %q, want exactly the checked public address", got)
	}
	if len(res.calls) != 1 {
		t.Errorf("resolver called %d times for one connection", len(res.calls))
	}

	// The second connection sees the rebound answer: refused, nothing dialled.
	if c, err := socksDial(t, g, "rebind.example.com:80"); err == nil {
		c.Close()
		t.Fatal("CONNECT after rebinding to loopback succeeded")
	}
	if got := rec.list(); len(got) != 1 {
		t.Errorf("dialed %q after the rebind", got)
	}
	if n := g.Stats().Refused["loopback"]; n != 1 {
		t.Errorf("Refused[loopback] = %d", n)
	}
}

func TestGuardAnyRefusedAddressRefusesTheName(t *testing.T) {
	stand := startEcho(t)
	res := &scriptedResolver{answers: [][]netip.Addr{
		ips("93.184.215.14", "10.0.0.7"),
		ips("2606:4700::1", "::ffff:192.168.0.1"),
		ips("93.184.215.14", "93.184.215.15"),
	}}
	rec := &recordingDialer{to: stand.addr()}
	g, _ := startGuard(t, egress.WithDial(egress.Config{Resolver: res}, rec.dial))
	for i := range 2 {
		if c, err := socksDial(t, g, "mixed.example.com:443"); err == nil {
			c.Close()
			t.Fatalf("answer %d: a name with a private address was reached", i)
		}
	}
	c, err := socksDial(t, g, "fine.example.com:443")
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if got := rec.list(); !slices.Equal(got, []string{"93.184.215.14:443"}) {
		t.Errorf("dialed %q", got)
	}
	if r := g.Stats().Refused; r["private"] != 2 {
		t.Errorf("Refused = %v", r)
	}
}

func TestGuardNoAddressIsAnError(t *testing.T) {
	res := &scriptedResolver{answers: [][]netip.Addr{
		{},             // no answer at all
		{netip.Addr{}}, // an answer holding only an invalid address
	}}
	rec := &recordingDialer{to: "127.0.0.1:1"}
	g, _ := startGuard(t, egress.WithDial(egress.Config{Resolver: res}, rec.dial))
	for range 2 {
		if c, err := socksDial(t, g, "empty.example.com:80"); err == nil {
			c.Close()
			t.Fatal("CONNECT with no address succeeded")
		}
	}
	if got := rec.list(); len(got) != 0 {
		t.Errorf("dialed %q", got)
	}
	if n := g.Stats().Refused["lookup_failed"]; n != 2 {
		t.Errorf("Refused[lookup_failed] = %d", n)
	}
}

func TestGuardRefusesTestNet(t *testing.T) {
	res := &scriptedResolver{answers: [][]netip.Addr{ips("192.0.2.10")}}
	g, _ := startGuard(t, egress.Config{Resolver: res})
	if c, err := socksDial(t, g, "doc.example.com:80"); err == nil {
		c.Close()
		t.Fatal("TEST-NET address reached")
	}
	if n := g.Stats().Refused["documentation"]; n != 1 {
		t.Errorf("Refused = %v", g.Stats().Refused)
	}
}

// TestGuardDialTimeout: a destination that never answers costs one
// DialTimeout, then the client gets a failure reply.
func TestGuardDialTimeout(t *testing.T) {
	res := &scriptedResolver{answers: [][]netip.Addr{ips("93.184.215.14")}}
	hadDeadline := make(chan bool, 1)
	hang := func(ctx context.Context, _, _ string) (net.Conn, error) {
		_, ok := ctx.Deadline()
		hadDeadline <- ok
		<-ctx.Done()
		return nil, ctx.Err()
	}
	g, _ := startGuard(t, egress.WithDial(egress.Config{Resolver: res, DialTimeout: 100 * time.Millisecond}, hang))
	if c, err := socksDial(t, g, "slow.example.com:443"); err == nil {
		c.Close()
		t.Fatal("CONNECT to a hung destination succeeded")
	}
	if !<-hadDeadline {
		t.Error("the dial had no deadline")
	}
}
