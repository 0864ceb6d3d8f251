package egress_test

import (
	"testing"

	"github.com/buddi-dev/buddi/egress"
)

func TestSiteOf(t *testing.T) {
	cases := map[string]struct {
		url  string
		want string
	}{
		"www":               {"https://www.example.com/a", "example.com"},
		"apex":              {"http://example.com", "example.com"},
		"deep":              {"https://a.b.c.example.co.uk/", "example.co.uk"},
		"github pages 1":    {"https://user1.github.io/", "user1.github.io"},
		"github pages 2":    {"https://www.user2.github.io/", "user2.github.io"},
		"suffix itself":     {"https://github.io/", "github.io"},
		"icann suffix":      {"https://co.uk/", "co.uk"},
		"unknown suffix":    {"https://a.b.unknowntld/", "a.b.unknowntld"},
		"wildcard private":  {"https://x.compute.amazonaws.com/", "x.compute.amazonaws.com"},
		"case and IDN":      {"https://WWW.Bücher.DE/", "xn--bcher-kva.de"},
		"trailing dot":      {"https://www.example.com./", "www.example.com."},
		"explicit port":     {"https://example.com:8443/", "https://example.com:8443"},
		"default port":      {"https://example.com:443/", "example.com"},
		"http on 443":       {"http://example.com:443/", "http://example.com:443"},
		"ip":                {"http://93.184.215.14/x", "http://93.184.215.14"},
		"legacy ip":         {"http://0x5d.0xb8.0xd7.0x0e/", "http://93.184.215.14"},
		"ipv6":              {"http://[2606:4700::1]:8080/", "http://[2606:4700::1]:8080"},
		"localhost":         {"http://localhost:3000/", "http://localhost:3000"},
		"localhost no port": {"http://localhost/", "http://localhost"},
		"sub.localhost":     {"http://app.localhost/", "http://app.localhost"},
		"ftp":               {"ftp://example.com/", ""},
		"bad host":          {"http://xn--127-/", ""},
		"no host":           {"http:example.com", ""},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			s := egress.SiteOf(mustURL(t, c.url))
			if s.String() != c.want {
				t.Errorf("SiteOf(%q) = %q, want %q", c.url, s, c.want)
			}
			if s.IsZero() != (c.want == "") {
				t.Errorf("SiteOf(%q).IsZero() = %v", c.url, s.IsZero())
			}
		})
	}
	if s := egress.SiteOf(nil); !s.IsZero() {
		t.Errorf("SiteOf(nil) = %v", s)
	}
}

func TestApprovalCovers(t *testing.T) {
	cases := map[string]struct {
		approved, target string
		want             egress.Coverage
	}{
		"same page":               {"https://www.reddit.com/", "https://www.reddit.com/", egress.Covered},
		"subdomain":               {"https://reddit.com/", "https://old.reddit.com/r/golang", egress.Covered},
		"http covers https":       {"http://example.com/", "https://www.example.com/", egress.Covered},
		"https never covers http": {"https://example.com/", "http://example.com/", egress.NotCovered},
		"other site":              {"https://example.com/", "https://example.org/", egress.NotCovered},
		"tenants apart":           {"https://user1.github.io/", "https://user2.github.io/", egress.NotCovered},
		"unknown suffix apart":    {"https://a.b.unknowntld/", "https://c.b.unknowntld/", egress.NotCovered},
		"query where none was":    {"https://example.com/search", "https://example.com/search?q=go", egress.AskAgain},
		"no query, no query":      {"https://example.com/search", "https://example.com/about", egress.Covered},
		"same query":              {"https://example.com/s?q=go", "https://example.com/other?q=go", egress.Covered},
		"query differs":           {"https://example.com/s?q=go", "https://example.com/s?q=secret", egress.AskAgain},
		"query dropped":           {"https://example.com/s?q=go", "https://example.com/s", egress.AskAgain},
		"query reordered":         {"https://example.com/s?a=1&b=2", "https://example.com/s?b=2&a=1", egress.AskAgain},
		"query but downgrade":     {"https://example.com/s?q=go", "http://example.com/s?q=x", egress.NotCovered},
		"exact origin":            {"http://localhost:3000/", "http://localhost:3000/x", egress.Covered},
		"origin other port":       {"http://localhost:3000/", "http://localhost:3001/", egress.NotCovered},
		"origin no upgrade":       {"http://localhost:3000/", "https://localhost:3000/", egress.NotCovered},
		"ip exact":                {"http://93.184.215.14/", "http://93.184.215.14/a", egress.Covered},
		"ip is not its domain":    {"http://93.184.215.14/", "http://example.com/", egress.NotCovered},
		"explicit port apart":     {"https://example.com/", "https://example.com:8443/", egress.NotCovered},
		"not http":                {"https://example.com/", "ftp://example.com/", egress.NotCovered},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			a := egress.ApprovalOf(mustURL(t, c.approved))
			if got := a.Covers(mustURL(t, c.target)); got != c.want {
				t.Errorf("approval of %q covers %q: %v, want %v", c.approved, c.target, got, c.want)
			}
		})
	}
}

func TestCoverageOf(t *testing.T) {
	target := mustURL(t, "https://example.com/s?q=2")
	ask := egress.ApprovalOf(mustURL(t, "https://example.com/s?q=1"))
	same := egress.ApprovalOf(mustURL(t, "http://example.com/other?q=2"))
	if got := egress.CoverageOf(nil, target); got != egress.NotCovered {
		t.Errorf("no approvals: %v", got)
	}
	if got := egress.CoverageOf([]egress.Approval{ask}, target); got != egress.AskAgain {
		t.Errorf("query approval: %v", got)
	}
	if got := egress.CoverageOf([]egress.Approval{ask, same}, target); got != egress.Covered {
		t.Errorf("strongest wins: %v", got)
	}
	if egress.Covered.String() != "covered" || egress.AskAgain.String() != "ask_again" || egress.NotCovered.String() != "not_covered" {
		t.Error("Coverage strings changed")
	}
	if a := egress.ApprovalOf(nil); a != (egress.Approval{}) {
		t.Errorf("ApprovalOf(nil) = %v", a)
	}
}
