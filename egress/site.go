package egress

import (
	"net/url"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// Site is the unit of approval. Most hosts belong to their registrable
// domain (www.example.com and example.com are one site; user1.github.io and
// user2.github.io are two). Hosts that cannot be site-scoped (bare IPs,
// localhost, any explicit non-default port) are their exact origin instead.
// Exactly one field is set; the zero Site is "no site" and matches nothing.
type Site struct {
	Domain string `json:"domain,omitempty"` // registrable domain, or the whole host when its suffix is unknown
	Origin string `json:"origin,omitempty"` // scheme://host[:port] when the host cannot be site-scoped
}

// String is the site's key: its domain, or its origin.
func (s Site) String() string {
	if s.Origin != "" {
		return s.Origin
	}
	return s.Domain
}

// IsZero reports whether s names no site.
func (s Site) IsZero() bool { return s == Site{} }

// SiteOf returns the site of an http or https URL, or the zero Site for
// anything else (other schemes, hosts a browser would not read the same way).
func SiteOf(u *url.URL) Site {
	if u == nil || (u.Scheme != "http" && u.Scheme != "https") {
		return Site{}
	}
	h, err := parseHost(u.Hostname())
	if err != nil {
		return Site{}
	}
	port, ok := parsePort(u.Port(), u.Scheme)
	if !ok {
		return Site{}
	}
	if h.isIP() || isLocalhost(h.bare()) || port != defaultPort(u.Scheme) {
		return Site{Origin: origin{scheme: u.Scheme, host: h, port: port}.String()}
	}
	return Site{Domain: registrable(h.name)}
}

// registrable is the name's eTLD+1 from the Public Suffix List. A name under
// a suffix the list does not know, or a name that is itself a suffix, stands
// for itself: an unknown suffix may be shared by many owners, and treating
// each host as its own site costs extra prompts, never a merged approval.
// The list's private section (github.io, blogspot.com) counts as known.
func registrable(name string) string {
	suffix, icann := publicsuffix.PublicSuffix(name)
	// With no matching rule the list falls back to "*": the last label, not
	// ICANN. Every real private-section rule has at least two labels.
	if !icann && !strings.Contains(suffix, ".") {
		return name
	}
	d, err := publicsuffix.EffectiveTLDPlusOne(name)
	if err != nil {
		return name
	}
	return d
}
