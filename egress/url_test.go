package egress_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/egress"
)

var testPreviews = []string{"http://127.0.0.1:5173", "http://localhost:3000", "https://[::1]:8443"}

func newPolicy(t testing.TB, cfg egress.Config) *egress.Policy {
	t.Helper()
	p, err := egress.NewPolicy(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// checkCode runs CheckURL and returns the refusal code, "" for allowed. It
// fails the test on an error that is not a *Refusal.
func checkCode(t *testing.T, p *egress.Policy, raw string, src egress.Source, approvals ...egress.Approval) egress.Code {
	t.Helper()
	err := p.CheckURL(raw, src, approvals...)
	if err == nil {
		return ""
	}
	var r *egress.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("CheckURL(%q) returned %T %v, want *egress.Refusal", raw, err, err)
	}
	if !oneSentence(r.Reason) {
		t.Errorf("CheckURL(%q) reason %q is not one sentence", raw, r.Reason)
	}
	return r.Code
}

// oneSentence: ends with a full stop, and no full stop inside is followed
// by a capital letter (host names like "example.com." are fine).
func oneSentence(s string) bool {
	if !strings.HasSuffix(s, ".") || strings.ContainsAny(s, "\n") {
		return false
	}
	for i := 0; i+2 < len(s); i++ {
		if s[i] == '.' && s[i+1] == ' ' && s[i+2] >= 'A' && s[i+2] <= 'Z' {
			return false
		}
	}
	return true
}

func TestCheckURL(t *testing.T) {
	p := newPolicy(t, egress.Config{PreviewOrigins: testPreviews})
	const ok egress.Code = ""
	cases := map[string]struct {
		url  string
		want egress.Code
	}{
		"public https":                  {"https://example.com/path?q=1", ok},
		"public http":                   {"http://example.com", ok},
		"mixed case scheme":             {"HtTpS://Example.COM/", ok},
		"explicit default port":         {"https://example.com:443/", ok},
		"port 80 on https":              {"https://example.com:80/", ok},
		"leading zero port":             {"http://example.com:0080/", ok},
		"empty port":                    {"http://example.com:/", ok},
		"public IPv4 literal":           {"http://93.184.215.14/", ok},
		"public IPv6 literal":           {"http://[2606:4700:4700::1111]/", ok},
		"IDN":                           {"https://bücher.example.de/", ok},
		"IDN percent-encoded":           {"https://b%C3%BCcher.example.de/", ok},
		"punycode":                      {"https://xn--bcher-kva.example.de/", ok},
		"underscore host":               {"https://a_b.example.com/", ok},
		"trailing dot":                  {"https://example.com./", ok},
		"surrounding spaces":            {"  https://example.com/  ", ok},
		"about:blank":                   {"about:blank", ok},
		"preview":                       {"http://127.0.0.1:5173/app", ok},
		"preview localhost":             {"http://localhost:3000/", ok},
		"preview v6":                    {"https://[::1]:8443/", ok},
		"ftp":                           {"ftp://example.com/", egress.CodeSchemeNotAllowed},
		"file":                          {"file:///etc/passwd", egress.CodeSchemeNotAllowed},
		"javascript":                    {"javascript:alert(1)", egress.CodeSchemeNotAllowed},
		"data":                          {"data:text/html,<h1>x</h1>", egress.CodeSchemeNotAllowed},
		"chrome":                        {"chrome://settings", egress.CodeSchemeNotAllowed},
		"about other":                   {"about:config", egress.CodeSchemeNotAllowed},
		"about blank with query":        {"about:blank?x", egress.CodeSchemeNotAllowed},
		"ws":                            {"ws://example.com/", egress.CodeSchemeNotAllowed},
		"blob":                          {"blob:https://example.com/uuid", egress.CodeSchemeNotAllowed},
		"no scheme":                     {"example.com", egress.CodeSchemeNotAllowed},
		"empty":                         {"", egress.CodeSchemeNotAllowed},
		"opaque http":                   {"http:example.com", egress.CodeBadURL},
		"one slash":                     {"http:/example.com", egress.CodeBadURL},
		"three slashes":                 {"http:///example.com", egress.CodeBadURL},
		"userinfo":                      {"http://a@b.example.com", egress.CodeBadURL},
		"userinfo trick":                {"http://evil.com@127.0.0.1", egress.CodeBadURL},
		"userinfo password":             {"https://user:pw@example.com/", egress.CodeBadURL},
		"backslash trick":               {"http://evil.com\\@127.0.0.1/", egress.CodeBadURL},
		"backslash path":                {"https://example.com\\foo", egress.CodeBadURL},
		"tab in host":                   {"http://127.0.\t0.1/", egress.CodeBadURL},
		"newline in host":               {"http://exa\nmple.com/", egress.CodeBadURL},
		"space in host":                 {"http://exa mple.com/", egress.CodeBadURL},
		"percent-encoded digits":        {"http://%31%32%37.0.0.1/", egress.CodeBadURL},
		"port too large":                {"http://example.com:65536/", egress.CodeBadURL},
		"port huge":                     {"http://example.com:99999999999/", egress.CodeBadURL},
		"port zero":                     {"http://example.com:0/", egress.CodeBadURL},
		"port negative":                 {"http://example.com:-1/", egress.CodeBadURL},
		"unbracketed v6":                {"http://::1/", egress.CodeBadURL},
		"unclosed bracket":              {"http://[::1/", egress.CodeBadURL},
		"brackets around a name":        {"http://[example.com]/", egress.CodeBadURL},
		"brackets around v4":            {"http://[127.0.0.1]/", egress.CodeBadURL},
		"v6 zone":                       {"http://[fe80::1%25eth0]/", egress.CodeBadURL},
		"empty label":                   {"http://example..com/", egress.CodeBadURL},
		"two trailing dots":             {"http://example.com../", egress.CodeBadURL},
		"ends in bad number":            {"http://example.123/", egress.CodeBadURL},
		"five parts":                    {"http://1.2.3.4.5/", egress.CodeBadURL},
		"v4 part too big":               {"http://256.0.0.1/", egress.CodeBadURL},
		"v4 dword too big":              {"http://4294967296/", egress.CodeBadURL},
		"bad octal":                     {"http://09.0.0.1/", egress.CodeBadURL},
		"bad punycode":                  {"http://xn--127-/", egress.CodeBadURL},
		"forbidden code point":          {"http://exa%E2%80%8Bmple%7C.com/", egress.CodeBadURL},
		"loopback":                      {"http://127.0.0.1/", egress.CodePrivateAddress},
		"loopback other port":           {"http://127.0.0.1:5174/", egress.CodePrivateAddress},
		"loopback preview wrong scheme": {"https://127.0.0.1:5173/", egress.CodePrivateAddress},
		"localhost not as written":      {"http://localhost:5173/", egress.CodePrivateAddress},
		"preview legacy spelling":       {"http://0x7f.1:5173/", egress.CodePrivateAddress},
		"preview dword spelling":        {"http://2130706433:5173/", egress.CodePrivateAddress},
		"preview upper localhost":       {"http://LocalHost:3000/", ok},
		"127.0.0.2 preview port":        {"http://127.0.0.2:5173/", egress.CodePrivateAddress},
		"decimal dword":                 {"http://2130706433/", egress.CodePrivateAddress},
		"hex short":                     {"http://0x7f.1/", egress.CodePrivateAddress},
		"octal":                         {"http://0177.0.0.1/", egress.CodePrivateAddress},
		"leading zeros":                 {"http://127.000.000.001/", egress.CodePrivateAddress},
		"two parts":                     {"http://127.1/", egress.CodePrivateAddress},
		"hex dword":                     {"http://0x7f000001/", egress.CodePrivateAddress},
		"v4 trailing dot":               {"http://127.0.0.1./", egress.CodePrivateAddress},
		"octal private":                 {"http://012.0.0.1/", egress.CodePrivateAddress},
		"fullwidth digits":              {"http://１２７．０．０．１/", egress.CodePrivateAddress},
		"ideographic dots":              {"http://127。0。0。1/", egress.CodePrivateAddress},
		"unspecified":                   {"http://0.0.0.0/", egress.CodePrivateAddress},
		"zero":                          {"http://0/", egress.CodePrivateAddress},
		"mapped loopback":               {"http://[::ffff:127.0.0.1]/", egress.CodePrivateAddress},
		"mapped preview":                {"http://[::ffff:127.0.0.1]:5173/", egress.CodePrivateAddress},
		"v6 loopback":                   {"http://[::1]/", egress.CodePrivateAddress},
		"nat64":                         {"http://[64:ff9b::a9fe:a9fe]/", egress.CodePrivateAddress},
		"metadata":                      {"http://169.254.169.254/latest/meta-data/", egress.CodePrivateAddress},
		"private":                       {"http://192.168.1.1/", egress.CodePrivateAddress},
		"cgnat":                         {"http://100.64.0.1/", egress.CodePrivateAddress},
		"ula":                           {"http://[fd00::1]/", egress.CodePrivateAddress},
		"localhost":                     {"http://localhost/", egress.CodePrivateAddress},
		"LOCALHOST fullwidth":           {"http://ＬＯＣＡＬＨＯＳＴ/", egress.CodePrivateAddress},
		"localhost trailing dot":        {"http://localhost./", egress.CodePrivateAddress},
		"sub.localhost":                 {"http://app.localhost/", egress.CodePrivateAddress},
		"mdns":                          {"http://printer.local/", egress.CodePrivateAddress},
		"single label":                  {"http://intranet/", egress.CodePrivateAddress},
		"home.arpa":                     {"http://nas.home.arpa/", egress.CodePrivateAddress},
		"internal":                      {"http://db.internal/", egress.CodePrivateAddress},
		"port 8080":                     {"http://example.com:8080/", egress.CodePortNotAllowed},
		"port 22 v4":                    {"http://93.184.215.14:22/", egress.CodePortNotAllowed},
		"bank":                          {"https://www.chase.com/", egress.CodeNeverAutomate},
		"bank apex":                     {"https://chase.com/", egress.CodeNeverAutomate},
		"bank upper trailing dot":       {"https://WWW.PayPal.COM./signin", egress.CodeNeverAutomate},
		"bank odd port":                 {"https://chase.com:8443/", egress.CodeNeverAutomate},
		"gov id":                        {"https://secure.login.gov/", egress.CodeNeverAutomate},
		"lookalike is not the bank":     {"https://chase.com.example.net/", ok},
		"suffix is not the bank":        {"https://notchase.com/", ok},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if got := checkCode(t, p, c.url, egress.SourceAgent); got != c.want {
				t.Errorf("CheckURL(%q) = %q, want %q", c.url, got, c.want)
			}
		})
	}
}

func TestCheckURLHosts(t *testing.T) {
	p := newPolicy(t, egress.Config{Hosts: []string{"example.com", "Accounts.Example.com"}, PreviewOrigins: testPreviews})
	cases := map[string]struct {
		url  string
		want egress.Code
	}{
		"listed":               {"https://example.com/", ""},
		"listed any case":      {"https://accounts.example.COM/login", ""},
		"subdomain unlisted":   {"https://www.example.com/", egress.CodeHostNotAllowed},
		"other":                {"https://example.org/", egress.CodeHostNotAllowed},
		"trailing dot":         {"https://example.com./", egress.CodeHostNotAllowed},
		"preview still":        {"http://127.0.0.1:5173/", ""},
		"never automate first": {"https://paypal.com/", egress.CodeNeverAutomate},
		"private before host":  {"http://10.0.0.1/", egress.CodePrivateAddress},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if got := checkCode(t, p, c.url, egress.SourceAgent); got != c.want {
				t.Errorf("CheckURL(%q) = %q, want %q", c.url, got, c.want)
			}
		})
	}
}

func TestCheckURLAirGap(t *testing.T) {
	p := newPolicy(t, egress.Config{AirGap: true, PreviewOrigins: testPreviews})
	cases := map[string]struct {
		url  string
		want egress.Code
	}{
		"public":         {"https://example.com/", egress.CodeAirGap},
		"preview":        {"http://127.0.0.1:5173/", ""},
		"about:blank":    {"about:blank", ""},
		"never automate": {"https://www.paypal.com/", egress.CodeNeverAutomate},
		"other loopback": {"http://127.0.0.1:5174/", egress.CodeAirGap},
		"bad scheme":     {"file:///x", egress.CodeSchemeNotAllowed},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if got := checkCode(t, p, c.url, egress.SourceAgent); got != c.want {
				t.Errorf("CheckURL(%q) = %q, want %q", c.url, got, c.want)
			}
		})
	}
}

func TestCheckURLPageLink(t *testing.T) {
	p := newPolicy(t, egress.Config{PreviewOrigins: testPreviews})
	approved := egress.ApprovalOf(mustURL(t, "https://www.example.com/"))
	httpApproved := egress.ApprovalOf(mustURL(t, "http://news.example.org/"))
	cases := map[string]struct {
		url  string
		src  egress.Source
		want egress.Code
	}{
		"agent unapproved":         {"https://other.example.net/", egress.SourceAgent, ""},
		"redirect unapproved":      {"https://other.example.net/", egress.SourceRedirect, ""},
		"popup unapproved":         {"https://other.example.net/", egress.SourcePopup, ""},
		"link unapproved":          {"https://other.example.net/", egress.SourcePageLink, egress.CodeUnapprovedSite},
		"unknown source is strict": {"https://other.example.net/", egress.Source("banner"), egress.CodeUnapprovedSite},
		"link approved site":       {"https://docs.example.com/a", egress.SourcePageLink, ""},
		"link downgrade":           {"http://example.com/", egress.SourcePageLink, egress.CodeUnapprovedSite},
		"link upgrade":             {"https://example.org/", egress.SourcePageLink, ""},
		"link preview":             {"http://127.0.0.1:5173/", egress.SourcePageLink, ""},
		"link never automate":      {"https://chase.com/", egress.SourcePageLink, egress.CodeNeverAutomate},
		"link private":             {"http://10.1.1.1/", egress.SourcePageLink, egress.CodePrivateAddress},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if got := checkCode(t, p, c.url, c.src, approved, httpApproved); got != c.want {
				t.Errorf("CheckURL(%q, %s) = %q, want %q", c.url, c.src, got, c.want)
			}
		})
	}
}

func TestRefusalErrors(t *testing.T) {
	p := newPolicy(t, egress.Config{AirGap: true})
	err := p.CheckURL("https://example.com/", egress.SourceAgent)
	if !errors.Is(err, &egress.Refusal{Code: egress.CodeAirGap}) {
		t.Errorf("errors.Is(%v, air_gap) = false", err)
	}
	if errors.Is(err, &egress.Refusal{Code: egress.CodeBadURL}) {
		t.Errorf("errors.Is(%v, bad_url) = true", err)
	}
	if got := egress.CodeOf(err); got != egress.CodeAirGap {
		t.Errorf("CodeOf = %q", got)
	}
	if got := egress.CodeOf(errors.New("x")); got != "" {
		t.Errorf("CodeOf(plain error) = %q", got)
	}
	if !strings.HasPrefix(err.Error(), "air_gap: ") {
		t.Errorf("Error() = %q", err.Error())
	}
}
