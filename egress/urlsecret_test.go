package egress_test

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/egress"
)

// The owner's secret and a value masked from a page, as the tests use them.
const (
	ownerSecret = "correct-horse-battery"
	maskedValue = "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz012345"
)

func TestAURLCarryingASecretIsRefused(t *testing.T) {
	known := egress.NewKnown()
	known.SetOwner([]string{ownerSecret, "short"})
	p := newPolicy(t, egress.Config{PreviewOrigins: testPreviews, Known: known})
	p.Masked([]string{maskedValue})
	b64 := base64.RawURLEncoding.EncodeToString([]byte(ownerSecret))
	const refused = egress.CodeSecretInURL
	for name, tc := range map[string]struct {
		url  string
		want egress.Code
	}{
		"API key in the query":         {"https://example.com/?key=sk-proj-AbCdEfGhIjKlMnOpQrStUvWx", refused},
		"GitHub token in the path":     {"https://example.com/u/ghp_abcdefghijklmnopqrstuvwxyz0123456789/x", refused},
		"escaped key in the query":     {"https://example.com/?k=" + url.QueryEscape("xoxb-1234567890-abcdefghij"), refused},
		"AWS key as a query name":      {"https://example.com/?AKIAIOSFODNN7EXAMPLE", refused},
		"JWT in the fragment":          {"https://example.com/cb#id_token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", refused},
		"key after a slash in a value": {"https://example.com/login?next=/a/sk-proj-AbCdEfGhIjKlMnOpQrStUvWx", refused},
		"random key in a path":         {"https://example.com/hook/q7Zt2Lm9Xv4Rb8Nk3Wp6Yc1Hd5Gs0Ja2", refused},
		"the owner's secret":           {"https://example.com/?pw=" + ownerSecret, refused},
		"the owner's secret, base64":   {"https://example.com/?d=" + b64, refused},
		"the owner's secret, hex":      {"https://example.com/" + strings.ToUpper(hex.EncodeToString([]byte(ownerSecret))), refused},
		"the owner's secret, escaped":  {"https://example.com/?pw=correct%2Dhorse%2Dbattery", refused},
		"a masked value inside text":   {"https://example.com/?q=x" + maskedValue + "y", refused},
		"a key as a host label":        {"https://sk-proj-abcdefghijklmnopqrstuvwx.example.com/", refused},
		"a known value in the host":    {"https://" + ownerSecret + ".example.com/", refused},
		"a short owner value":          {"https://example.com/short", ""},
		"docs page with an anchor":     {"https://docs.python.org/3/library/functions.html#open", ""},
		"hashed asset name":            {"https://example.com/static/main.3f2a9b8c7d6e5f4a.js", ""},
		"uuid in the path":             {"https://example.com/items/123e4567-e89b-12d3-a456-426614174000", ""},
		"ordinary query":               {"https://www.example.com/search?q=opening+hours+library&page=2", ""},
		"a secret to a preview":        {"http://127.0.0.1:5173/?key=sk-proj-AbCdEfGhIjKlMnOpQrStUvWx", ""},
	} {
		if got := checkCode(t, p, tc.url, egress.SourceAgent); got != tc.want {
			t.Errorf("%s: %s gave %q, want %q", name, tc.url, got, tc.want)
		}
	}
	err := p.CheckURL("https://example.com/?key=sk-proj-AbCdEfGhIjKlMnOpQrStUvWx", egress.SourceRedirect)
	if err == nil || strings.Contains(err.Error(), "sk-proj") || !strings.Contains(err.Error(), "an API key in its query") {
		t.Errorf("a redirect's refusal: %v; want it named, in its place, without the value", err)
	}
	if got := checkCode(t, p, "https://example.com/?key=sk-proj-AbCdEfGhIjKlMnOpQrStUvWx", egress.SourceOwner); got != "" {
		t.Errorf("the owner browsing was refused: %s", got)
	}
}

func TestKnownKeepsTheNewestMaskedValues(t *testing.T) {
	known := egress.NewKnown()
	p := newPolicy(t, egress.Config{Known: known})
	first := "first-masked-value-0001"
	p.Masked([]string{first})
	for i := range egress.KnownSeen {
		p.Masked([]string{fmt.Sprintf("later-masked-value-%04d", i)})
	}
	if got := checkCode(t, p, "https://example.com/?v="+first, egress.SourceAgent); got != "" {
		t.Errorf("the oldest masked value was kept past %d: %s", egress.KnownSeen, got)
	}
	p.Masked([]string{first})
	if got := checkCode(t, p, "https://example.com/?v="+first, egress.SourceAgent); got != egress.CodeSecretInURL {
		t.Errorf("a value masked again: %q", got)
	}
}

func FuzzCheckURLNeverEchoesASecret(f *testing.F) {
	f.Add("https://example.com/?key=sk-proj-AbCdEfGhIjKlMnOpQrStUvWx")
	f.Add("https://example.com/a/ghp_abcdefghijklmnopqrstuvwxyz0123456789")
	f.Add("https://example.com/#" + ownerSecret)
	known := egress.NewKnown()
	known.SetOwner([]string{ownerSecret})
	p, err := egress.NewPolicy(egress.Config{Known: known})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		err := p.CheckURL(raw, egress.SourceAgent)
		if egress.CodeOf(err) == egress.CodeSecretInURL && strings.Contains(err.Error(), ownerSecret) {
			t.Fatalf("the refusal of %q names the secret", raw)
		}
	})
}
