package egress_test

import (
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/egress"
)

// buddi's own address is refused, with a sentence that says so, even when
// the owner wrote it as a preview origin; the preview beside it stays open.
func TestBuddisOwnAddressIsNeverAPage(t *testing.T) {
	p := newPolicy(t, egress.Config{Self: []string{"127.0.0.1:7777"},
		PreviewOrigins: []string{"http://127.0.0.1:7777", "http://localhost:7777", "http://127.0.0.1:5173"}})
	if err := p.AddSelf("127.0.0.1:40001"); err != nil { // the guard, once it listens
		t.Fatal(err)
	}
	for _, raw := range []string{
		"http://127.0.0.1:7777/", "http://localhost:7777/api/browser/sessions", "http://[::1]:7777/mcp",
		"http://127.0.0.2:7777/", "http://app.localhost:7777/", "http://127.0.0.1:40001/",
	} {
		for _, src := range []egress.Source{egress.SourceAgent, egress.SourcePageLink, egress.SourceRedirect} {
			if got := checkCode(t, p, raw, src); got != egress.CodeBuddiAddress {
				t.Errorf("%s (%s): %q, want %s", raw, src, got, egress.CodeBuddiAddress)
			}
		}
		if p.Preview(raw) {
			t.Errorf("%s counts as a preview origin", raw)
		}
		if p.CheckInput(raw) == nil && newPolicy(t, egress.Config{AirGap: true, Self: []string{"127.0.0.1:7777"},
			PreviewOrigins: []string{"http://127.0.0.1:7777"}}).CheckInput("http://127.0.0.1:7777/") == nil {
			t.Errorf("air-gap lets input reach buddi's own page")
		}
	}
	if got := checkCode(t, p, "http://127.0.0.1:5173/app", egress.SourcePageLink); got != "" || !p.Preview("http://127.0.0.1:5173/") {
		t.Errorf("the real preview: %q, preview %v", got, p.Preview("http://127.0.0.1:5173/"))
	}
	err := p.CheckURL("http://localhost:7777/", egress.SourceAgent)
	if !strings.Contains(err.Error(), "buddi itself") {
		t.Errorf("the refusal says %q", err)
	}
	if err := p.AddSelf("nonsense"); err == nil {
		t.Error("AddSelf took an address without a port")
	}
}

// The guard connects nowhere near buddi's own listener, preview or not.
func TestGuardRefusesBuddisOwnAddress(t *testing.T) {
	buddi := startEcho(t)
	g, err := egress.Listen(egress.Config{Self: []string{buddi.addr()}, PreviewOrigins: []string{"http://" + buddi.addr()}})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if c, err := socksDial(t, g, buddi.addr()); err == nil {
		c.Close()
		t.Fatal("the guard connected to buddi's own address")
	}
	if n := g.Stats().Refused["proxy_self"]; n != 1 {
		t.Fatalf("refusals: %v, want one proxy_self", g.Stats().Refused)
	}
}

func TestPreviewAndReach(t *testing.T) {
	p := newPolicy(t, egress.Config{AirGap: true, Hosts: []string{"b.example.com", "a.example.com"}, PreviewOrigins: testPreviews})
	airGap, hosts, previews := p.Reach()
	if !airGap || strings.Join(hosts, ",") != "a.example.com,b.example.com" || len(previews) != len(testPreviews) {
		t.Fatalf("Reach = %v %v %v", airGap, hosts, previews)
	}
	for raw, want := range map[string]bool{
		"http://127.0.0.1:5173/x?q=1": true, "http://localhost:3000/": true, "http://127.0.0.1:5174/": false,
		"https://a.example.com/": false, "http://0x7f.1:5173/": false,
	} {
		if p.Preview(raw) != want {
			t.Errorf("Preview(%s) = %v", raw, !want)
		}
	}
}

func TestMaskSecrets(t *testing.T) {
	for in, want := range map[string]string{
		"Your key: sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz012345 keep it safe":                                "Your key: [masked: an API key] keep it safe",
		"token=ghp_abcdefghijklmnopqrstuvwxyz0123456789ab&x=1":                                                "token=[masked: a GitHub token]&x=1",
		"AWS AKIAIOSFODNN7EXAMPLE.":                                                                           "AWS [masked: an AWS access key].",
		"-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\n-----END RSA PRIVATE KEY-----\nafter":                      "[masked: a private key]\nafter",
		"Plain words, a URL https://example.com/a?b=c and 12345.":                                             "Plain words, a URL https://example.com/a?b=c and 12345.",
		"bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U": "bearer [masked: a JSON Web Token]",
	} {
		got, found := egress.MaskSecrets(in)
		if got != want || (len(found) == 0) != (got == in) {
			t.Errorf("MaskSecrets(%q) = %q, %q; want %q", in, got, found, want)
		}
		for _, v := range found {
			if !strings.Contains(in, v) || strings.Contains(got, v) {
				t.Errorf("MaskSecrets(%q) reports %q as masked", in, v)
			}
		}
	}
}

func FuzzMaskSecrets(f *testing.F) {
	f.Add("key sk-abcdefghijklmnopqrstuvwxyz and more")
	f.Add("-----BEGIN PRIVATE KEY-----")
	f.Fuzz(func(t *testing.T, s string) {
		out, found := egress.MaskSecrets(s)
		if len(found) == 0 && out != s {
			t.Fatalf("nothing masked but the text changed: %q → %q", s, out)
		}
		if _, again := egress.MaskSecrets(out); len(again) != 0 {
			t.Fatalf("masked text still holds a secret: %q", out)
		}
	})
}
