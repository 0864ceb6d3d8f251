package egress_test

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/egress"
)

const (
	cmdConnect   = 1
	cmdBind      = 2
	cmdAssociate = 3
	replyOK      = 0
)

func TestGuardPreviewEndToEnd(t *testing.T) {
	preview := startEcho(t)
	g, _ := startGuard(t, egress.Config{PreviewOrigins: []string{"http://" + preview.addr()}})
	c, err := socksDial(t, g, preview.addr())
	if err != nil {
		t.Fatalf("CONNECT to the preview origin: %v", err)
	}
	defer c.Close()
	roundTrip(t, c, "GET / HTTP/1.1\r\n\r\n")
	if st := g.Stats(); st.Accepted != 1 || st.Active != 1 || len(st.Refused) != 0 {
		t.Errorf("Stats = %+v", st)
	}
}

func TestGuardPreviewLocalhostName(t *testing.T) {
	preview := startEcho(t)
	g, _ := startGuard(t, egress.Config{PreviewOrigins: []string{"http://localhost:" + preview.port()}})
	c, err := socksDial(t, g, "localhost:"+preview.port())
	if err != nil {
		t.Fatalf("CONNECT localhost preview: %v", err)
	}
	defer c.Close()
	roundTrip(t, c, "hello")
	// The same port by IP is not the origin as written.
	if _, err := socksDial(t, g, preview.addr()); err == nil {
		t.Error("127.0.0.1 reached a preview written as localhost")
	}
}

func TestGuardRefusesOtherLoopback(t *testing.T) {
	preview := startEcho(t)
	other := startEcho(t)
	g, logs := startGuard(t, egress.Config{PreviewOrigins: []string{"http://" + preview.addr()}})
	targets := map[string]string{
		"other port":         other.addr(),
		"other port by name": "localhost:" + other.port(),
		"guard itself":       g.Addr(),
		"preview by name":    "localhost:" + preview.port(),
		"127.0.0.2":          "127.0.0.2:" + preview.port(),
	}
	for name, target := range targets {
		t.Run(name, func(t *testing.T) {
			if c, err := socksDial(t, g, target); err == nil {
				c.Close()
				t.Fatalf("CONNECT %s succeeded", target)
			}
		})
	}
	if n := other.accepted.Load() + preview.accepted.Load(); n != 0 {
		t.Errorf("loopback servers received %d connections", n)
	}
	st := g.Stats()
	if st.Refused["loopback"] != uint64(len(targets)-1) || st.Refused["proxy_self"] != 1 {
		t.Errorf("Refused = %v", st.Refused)
	}
	if l := logs.String(); !strings.Contains(l, "reason=loopback") || !strings.Contains(l, "host=127.0.0.1") || !strings.Contains(l, "host=localhost") {
		t.Errorf("refusals not logged with host and reason:\n%s", l)
	}
}

func TestGuardRawRequests(t *testing.T) {
	preview := startEcho(t)
	p := preview.ln.Addr().(*net.TCPAddr) //nolint:forcetypeassert // tcp
	port := uint16(p.Port)
	g, _ := startGuard(t, egress.Config{PreviewOrigins: []string{"http://" + preview.addr()}})
	cases := map[string]struct {
		cmd, atyp byte
		addr      []byte
		port      uint16
		reason    string
	}{
		"udp associate":        {cmdAssociate, 1, []byte{0, 0, 0, 0}, 0, "udp_associate"},
		"udp associate public": {cmdAssociate, 1, []byte{8, 8, 8, 8}, 53, "udp_associate"},
		"bind":                 {cmdBind, 1, []byte{127, 0, 0, 1}, port, "bind"},
		"mapped preview":       {cmdConnect, 4, []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1}, port, "loopback"},
		"v6 loopback":          {cmdConnect, 4, append(make([]byte, 15), 1), port, "loopback"},
		"nat64 loopback":       {cmdConnect, 4, []byte{0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0, 127, 0, 0, 1}, 80, "nat64"},
		"metadata":             {cmdConnect, 1, []byte{169, 254, 169, 254}, 80, "link_local"},
		"private":              {cmdConnect, 1, []byte{10, 0, 0, 1}, 443, "private"},
		"cgnat":                {cmdConnect, 1, []byte{100, 64, 0, 1}, 443, "cgnat"},
		"unspecified":          {cmdConnect, 1, []byte{0, 0, 0, 0}, port, "unspecified"},
		"public port 22":       {cmdConnect, 1, []byte{93, 184, 215, 14}, 22, "port"},
		"public port 0":        {cmdConnect, 1, []byte{93, 184, 215, 14}, 0, "port"},
		"name legacy v4":       {cmdConnect, 3, []byte("0x7f.1"), port, "loopback"},
		"name dword":           {cmdConnect, 3, []byte("2130706433"), port, "loopback"},
		"name sub.localhost":   {cmdConnect, 3, []byte("a.localhost"), 80, "loopback"},
		"name garbage":         {cmdConnect, 3, []byte("exa mple\x00.com"), 80, "bad_host"},
		"name empty":           {cmdConnect, 3, nil, 80, "bad_host"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			before := g.Stats().Refused[c.reason]
			code, conn := rawRequest(t, g, c.cmd, c.atyp, c.addr, c.port)
			if code == replyOK {
				t.Fatalf("request granted")
			}
			assertClosed(t, conn)
			if after := g.Stats().Refused[c.reason]; after != before+1 {
				t.Errorf("Refused[%s] went %d -> %d; all: %v", c.reason, before, after, g.Stats().Refused)
			}
		})
	}
	if n := preview.accepted.Load(); n != 0 {
		t.Errorf("preview server received %d connections from refused requests", n)
	}
}

func TestGuardPortAndAirGap(t *testing.T) {
	preview := startEcho(t)
	g, _ := startGuard(t, egress.Config{AirGap: true, PreviewOrigins: []string{"http://" + preview.addr()}})
	c, err := socksDial(t, g, preview.addr())
	if err != nil {
		t.Fatalf("preview under air-gap: %v", err)
	}
	roundTrip(t, c, "x")
	c.Close()
	if _, err := socksDial(t, g, "93.184.215.14:443"); err == nil {
		t.Fatal("public address reached under air-gap")
	}
	if n := g.Stats().Refused["air_gap"]; n != 1 {
		t.Errorf("Refused[air_gap] = %d", n)
	}
}

func TestGuardStalledHandshake(t *testing.T) {
	g, _ := startGuard(t, egress.Config{HandshakeTimeout: 100 * time.Millisecond})
	silent, err := net.Dial("tcp", g.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	assertClosed(t, silent)

	// A client that greets and then stalls before its request.
	half, err := net.Dial("tcp", g.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer half.Close()
	if _, err := half.Write([]byte{5, 1, 0}); err != nil {
		t.Fatal(err)
	}
	assertClosed(t, half)
}

func TestGuardIdleTimeout(t *testing.T) {
	preview := startEcho(t)
	g, _ := startGuard(t, egress.Config{
		IdleTimeout:    150 * time.Millisecond,
		PreviewOrigins: []string{"http://" + preview.addr()},
	})
	c, err := socksDial(t, g, preview.addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	roundTrip(t, c, "ping")
	assertClosed(t, c)
}

func TestGuardCloseEndsLiveConnections(t *testing.T) {
	preview := startEcho(t)
	g, err := egress.Listen(egress.Config{PreviewOrigins: []string{"http://" + preview.addr()}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := socksDial(t, g, preview.addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	roundTrip(t, c, "before close")
	stalled, err := net.Dial("tcp", g.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer stalled.Close()
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	assertClosed(t, c)
	assertClosed(t, stalled)
	if st := g.Stats(); st.Active != 0 {
		t.Errorf("Active = %d after Close", st.Active)
	}
	if err := g.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := net.DialTimeout("tcp", g.Addr(), time.Second); err == nil {
		t.Error("listener still accepting after Close")
	}
}

func TestListenRejectsBadConfig(t *testing.T) {
	if _, err := egress.Listen(egress.Config{PreviewOrigins: []string{"http://*:5173"}}); err == nil {
		t.Error("wildcard preview accepted")
	}
}

func TestGuardPreviewIPv6(t *testing.T) {
	ln, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		t.Skipf("no IPv6 loopback here: %v", err)
	}
	ln.Close()
	preview := startEcho6(t)
	port := preview.port()
	g, _ := startGuard(t, egress.Config{PreviewOrigins: []string{"http://[::1]:" + port, "http://localhost:" + port}})
	c, err := socksDial(t, g, "[::1]:"+port)
	if err != nil {
		t.Fatalf("CONNECT [::1] preview: %v", err)
	}
	roundTrip(t, c, "six")
	c.Close()
	// localhost is tried as 127.0.0.1 first (nothing listens there), then ::1.
	c, err = socksDial(t, g, "localhost:"+port)
	if err != nil {
		t.Fatalf("CONNECT localhost preview served on ::1: %v", err)
	}
	roundTrip(t, c, "fallback")
	c.Close()
}

// countingResolver answers every name with a public address and counts
// the questions.
type countingResolver struct{ n atomic.Int64 }

func (r *countingResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	r.n.Add(1)
	return []netip.Addr{netip.MustParseAddr("93.184.215.14")}, nil
}

func TestGuardRefusesBrowserServicesWithoutLookup(t *testing.T) {
	r := &countingResolver{}
	g, logs := startGuard(t, egress.Config{Resolver: r})
	for _, name := range []string{"update.googleapis.com", "Update.GoogleAPIs.com.", "safebrowsing.googleapis.com"} {
		code, conn := rawRequest(t, g, cmdConnect, 3, []byte(name), 443)
		if code == replyOK {
			t.Fatalf("CONNECT %s granted", name)
		}
		assertClosed(t, conn)
	}
	if n := g.Stats().Refused["browser_service"]; n != 3 {
		t.Errorf("Refused = %v", g.Stats().Refused)
	}
	if n := r.n.Load(); n != 0 {
		t.Errorf("the guard looked up %d browser service names", n)
	}
	if !strings.Contains(logs.String(), "reason=browser_service") {
		t.Errorf("refusal not logged:\n%s", logs.String())
	}
	// A page's Google hosts are not the browser's services.
	code, conn := rawRequest(t, g, cmdConnect, 3, []byte("accounts.google.com"), 443)
	assertClosed(t, conn)
	if r.n.Load() != 1 || g.Stats().Refused["browser_service"] != 3 {
		t.Errorf("accounts.google.com was judged a browser service (reply %d, %v)", code, g.Stats().Refused)
	}
}

func TestServeUsesTheGivenListener(t *testing.T) {
	preview := startEcho(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g, err := egress.Serve(egress.Config{PreviewOrigins: []string{"http://" + preview.addr()}}, ln)
	if err != nil {
		t.Fatal(err)
	}
	if g.Addr() != ln.Addr().String() {
		t.Fatalf("Addr = %s, listener at %s", g.Addr(), ln.Addr())
	}
	c, err := socksDial(t, g, preview.addr())
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, c, "x")
	c.Close()
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := ln.Accept(); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("the guard left its listener open: %v", err)
	}
}

// The guard sees only the name of what a page loads (a fetch, an image),
// so it reads the name: one carrying a key, or one of the owner's secrets,
// is refused before any lookup, and the log does not repeat it.
func TestGuardRefusesANameCarryingASecret(t *testing.T) {
	r := &countingResolver{}
	known := egress.NewKnown()
	known.SetOwner([]string{ownerSecret})
	g, logs := startGuard(t, egress.Config{Resolver: r, Known: known})
	for _, name := range []string{"sk-proj-abcdefghijklmnopqrstuvwx.evil.example", ownerSecret + ".evil.example",
		"3f786850e387550fdab836ed7e6dc881de23001b.evil.example"} {
		code, conn := rawRequest(t, g, cmdConnect, 3, []byte(name), 443)
		if code == replyOK {
			t.Fatalf("CONNECT %s granted", name)
		}
		assertClosed(t, conn)
		if strings.Contains(logs.String(), strings.SplitN(name, ".", 2)[0]) {
			t.Errorf("the log names the secret of %s:\n%s", name, logs.String())
		}
	}
	if n := g.Stats().Refused["secret_in_host"]; n != 3 || r.n.Load() != 0 {
		t.Errorf("Refused = %v after %d lookups", g.Stats().Refused, r.n.Load())
	}
	code, conn := rawRequest(t, g, cmdConnect, 3, []byte("cdn.example.com"), 443)
	assertClosed(t, conn)
	if r.n.Load() != 1 || g.Stats().Refused["secret_in_host"] != 3 {
		t.Errorf("an ordinary name was refused (reply %d, %v)", code, g.Stats().Refused)
	}
}
