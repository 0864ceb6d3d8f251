package egress_test

import (
	"errors"
	"net/netip"
	"net/url"
	"testing"

	"github.com/buddi-dev/buddi/egress"
)

var knownCodes = map[egress.Code]bool{
	egress.CodeBadURL: true, egress.CodeSchemeNotAllowed: true, egress.CodeHostNotAllowed: true,
	egress.CodeNeverAutomate: true, egress.CodePrivateAddress: true, egress.CodePortNotAllowed: true,
	egress.CodeAirGap: true, egress.CodeUnapprovedSite: true,
}

// FuzzCheckURL: CheckURL never panics, refuses only with *Refusal and a
// known code, and never allows a URL whose host is not public unless it is
// the preview origin.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{
		"https://example.com/", "http://127.0.0.1:5173/", "http://0x7f.1/", "http://2130706433/",
		"http://[::ffff:127.0.0.1]/", "http://evil.com@127.0.0.1", "about:blank", "javascript:x",
		"http://１２７．０．０．１/", "http://example.com:99999/", "http://xn--bcher-kva.de/",
	} {
		f.Add(s)
	}
	p, err := egress.NewPolicy(egress.Config{PreviewOrigins: []string{"http://127.0.0.1:5173"}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		err := p.CheckURL(raw, egress.SourceAgent)
		if err != nil {
			var r *egress.Refusal
			if !errors.As(err, &r) || !knownCodes[r.Code] || r.Reason == "" {
				t.Fatalf("CheckURL(%q) = %v", raw, err)
			}
			return
		}
		if raw == "about:blank" {
			return
		}
		u, perr := url.Parse(raw)
		if perr != nil {
			return // surrounding spaces were trimmed before parsing
		}
		h, herr := egress.CanonicalHost(u.Hostname())
		if herr != nil {
			t.Fatalf("CheckURL allowed %q whose host does not parse", raw)
		}
		if a, aerr := netip.ParseAddr(h); aerr == nil && !egress.Classify(a).Allowed() && h != "127.0.0.1" {
			t.Fatalf("CheckURL allowed %q, host %s is %s", raw, h, egress.Classify(a))
		}
		_ = egress.SiteOf(u)
	})
}

// FuzzHost: the host canonicalizer is idempotent, and an address it
// produces classifies the same however it is written.
func FuzzHost(f *testing.F) {
	for _, s := range []string{"example.com", "0x7f.1", "0177.0.0.1", "2130706433", "127.1", "::ffff:7f00:1",
		"ＬＯＣＡＬＨＯＳＴ", "bücher.de", "a..b", "1.2.3.4.5", "0x", "xn--127-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := egress.CanonicalHost(s)
		if err != nil {
			return
		}
		again, err := egress.CanonicalHost(h)
		if err != nil || again != h {
			t.Fatalf("CanonicalHost(%q) = %q, but CanonicalHost(%q) = %q, %v", s, h, h, again, err)
		}
	})
}

// FuzzClassify: every 16 bytes classify without panicking, an IPv4-mapped
// address classifies as its IPv4 address, and only global unicast is public.
func FuzzClassify(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "::ffff:10.0.0.1", "64:ff9b::1.2.3.4", "2001::1", "fe80::1", "8.8.8.8", "2606:4700::1111"} {
		b := netip.MustParseAddr(s).As16()
		f.Add(b[:])
	}
	global := netip.MustParsePrefix("2000::/3")
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 16 {
			return
		}
		a := netip.AddrFrom16([16]byte(b[:16]))
		c := egress.Classify(a)
		if c.String() == "" || c == egress.ClassInvalid {
			t.Fatalf("Classify(%s) = %v", a, c)
		}
		v4 := netip.AddrFrom4([4]byte(b[12:16]))
		if m := netip.AddrFrom16(v4.As16()); egress.Classify(m) != egress.Classify(v4) {
			t.Fatalf("mapped %s is %v, %s is %v", m, egress.Classify(m), v4, egress.Classify(v4))
		}
		if c.Allowed() && !a.Is4In6() && !global.Contains(a) {
			t.Fatalf("Classify(%s) = public outside 2000::/3", a)
		}
		if z := a.WithZone("eth0"); egress.Classify(z).Allowed() {
			t.Fatalf("zoned %s allowed", z)
		}
	})
}

// FuzzGuardRefusesByNameWhatCheckURLDoes: whatever CheckURL refuses as a
// never-automate host or one outside the host list, the guard refuses by
// name before a lookup, so nothing sent around a URL check reaches it.
func FuzzGuardRefusesByNameWhatCheckURLDoes(f *testing.F) {
	for _, s := range []string{"www.paypal.com", "docs.example.org", "evil.example.net", "PayPal.com.", "93.184.215.14",
		"xn--bcher-kva.de", "a.b.c.chase.com", "localhost"} {
		f.Add(s)
	}
	cfg := egress.Config{Hosts: []string{"docs.example.org", "www.paypal.com", "93.184.215.14"}, PreviewOrigins: []string{"http://localhost:5173"}}
	p, err := egress.NewPolicy(cfg)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, host string) {
		u := &url.URL{Scheme: "https", Host: host, Path: "/"}
		code := egress.CodeOf(p.CheckURL(u.String(), egress.SourceAgent))
		if code != egress.CodeNeverAutomate && code != egress.CodeHostNotAllowed {
			return
		}
		h, err := url.Parse(u.String())
		if err != nil {
			return
		}
		if egress.NameRefusal(cfg, h.Hostname()) == "" {
			t.Fatalf("CheckURL refuses %q (%s) but the guard would look it up", host, code)
		}
	})
}
