package egress_test

import (
	"testing"

	"github.com/buddi-dev/buddi/egress"
)

func TestListedPagesAreTheHostsExactly(t *testing.T) {
	open, err := egress.NewPolicy(egress.Config{})
	if err != nil {
		t.Fatal(err)
	}
	listed, err := egress.NewPolicy(egress.Config{Hosts: []string{"example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		url          string
		open, listed bool
	}{
		"a listed host":           {"https://example.com/a", true, true},
		"letter case":             {"https://EXAMPLE.com/", true, true},
		"a subdomain":             {"https://www.example.com/", true, false},
		"another host":            {"https://other.org/", true, false},
		"a blank page":            {"about:blank", false, false},
		"an empty url":            {"", false, false},
		"not a url":               {"http://exa mple.com/", false, false},
		"another scheme":          {"file:///etc/passwd", false, false},
		"a user in the url":       {"https://a@example.com/", false, false},
		"a loopback preview page": {"http://127.0.0.1:5173/", true, false},
	}
	for name, c := range cases {
		if got := open.Listed(c.url); got != c.open {
			t.Errorf("%s, no hosts set: listed %v, want %v", name, got, c.open)
		}
		if got := listed.Listed(c.url); got != c.listed {
			t.Errorf("%s, hosts set: listed %v, want %v", name, got, c.listed)
		}
	}
}
