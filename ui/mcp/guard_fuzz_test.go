package mcp_test

import (
	"net"
	"net/netip"
	"strings"
	"testing"

	buddimcp "github.com/buddi-dev/buddi/ui/mcp"
)

// FuzzGuard feeds the Host and Origin headers of untrusted requests to the
// /mcp guard: whatever it lets through names buddi by an IP address,
// localhost or the public origin, and comes from no foreign page.
func FuzzGuard(f *testing.F) {
	f.Add("127.0.0.1:7777", "")
	f.Add("evil.example:7777", "")
	f.Add("[::1]:7777", "http://[::1]:7777")
	f.Add("localhost:7777", "http://evil.example")
	f.Add("buddi.example.net", "https://buddi.example.net")
	f.Fuzz(func(t *testing.T, host, origin string) {
		ok, err := buddimcp.Guarded("127.0.0.1:7777", "https://buddi.example.net", host, origin)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return
		}
		if h := strings.ToLower(host); h != "buddi.example.net" {
			name, port, err := net.SplitHostPort(h)
			if err != nil || port != "7777" {
				t.Fatalf("let through host %q", host)
			}
			if _, err := netip.ParseAddr(name); err != nil && name != "localhost" {
				t.Fatalf("let through the DNS name %q", host)
			}
		}
		switch strings.ToLower(origin) {
		case "", "http://127.0.0.1:7777", "http://localhost:7777", "http://[::1]:7777", "https://buddi.example.net":
		default:
			t.Fatalf("let through origin %q", origin)
		}
	})
}
