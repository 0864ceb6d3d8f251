package egress

import (
	"net/url"
	"slices"
	"strings"
)

// maxURL bounds what CheckURL will read; Chromium's own limit is larger, but
// no page an agent should open needs more.
const maxURL = 64 << 10

// Policy holds the URL rules. Build it with NewPolicy; it never changes after.
type Policy struct {
	r *rules
}

// NewPolicy validates cfg and returns its URL rules.
func NewPolicy(cfg Config) (*Policy, error) {
	r, err := compile(cfg)
	if err != nil {
		return nil, err
	}
	return &Policy{r: r}, nil
}

// CheckURL checks one navigation, redirect or popup target. It returns nil
// or a *Refusal. The checks run in this order: the URL must parse the same
// way a browser would read it (bad_url) with scheme http or https
// (scheme_not_allowed; about:blank passes); buddi's own addresses are
// refused (buddi_address); preview origins then pass outright; then, unless
// the owner is the one browsing (SourceOwner), secret_in_url for a path,
// query or fragment that carries what looks like a secret or a Known
// value; then never_automate, air_gap, private_address, port_not_allowed,
// host_not_allowed; and last, for SourcePageLink, unapproved_site unless one
// of approvals covers the site. Asking the owner about sites the agent chose
// itself is the caller's business, through Approval.Covers.
func (p *Policy) CheckURL(raw string, src Source, approvals ...Approval) error {
	u, o, ref := parseURL(raw)
	if ref != nil || u == nil {
		return nilIfNone(ref)
	}
	if p.r.self.hostIs(o.host, o.port) {
		return refuseSelf()
	}
	if p.r.isPreview(o, u.Hostname()) {
		return nil
	}
	if src != SourceOwner {
		if where, what, found := secretIn(u, p.r.known); found {
			return refuseSecret(where, what)
		}
	}
	if r := p.r.destination(o); r != nil {
		return r
	}
	if src.pageLink() && CoverageOf(approvals, u) == NotCovered {
		return refuse(CodeUnapprovedSite, "This link came from page content and the owner has not approved %s; ask the owner to approve the site, or navigate somewhere you chose yourself.", SiteOf(u))
	}
	return nil
}

// destination checks where a URL leads by the install's rules:
// never_automate, air_gap, private_address, port_not_allowed,
// host_not_allowed, in that order.
func (r *rules) destination(o origin) *Refusal {
	if !o.host.isIP() {
		if entry, ok := neverAutomate(o.host.bare()); ok {
			return refuse(CodeNeverAutomate, "%s is on the never-automate list (banks, payments, brokerages, government ID and adult sites); the owner has to do this themselves.", entry)
		}
	}
	if r.airGap {
		return refuse(CodeAirGap, "Air-gap is on, so the browser may open only the owner's preview origins; ask the owner to turn air-gap off to go to %s.", o.host)
	}
	if c := hostClass(o.host); !c.Allowed() {
		return refuse(CodePrivateAddress, "%s is a private or local destination (%s) and the browser may reach only the public internet; use a public site, or ask the owner to add a preview origin.", o.host, c)
	}
	if o.port != 80 && o.port != 443 {
		return refuse(CodePortNotAllowed, "Port %d is closed to the browser; only ports 80 and 443 are reachable outside the owner's preview origins.", o.port)
	}
	if r.hosts != nil && !r.hosts[o.host.String()] {
		return refuse(CodeHostNotAllowed, "%s is not in this install's browser hosts (BUDDI_BROWSER_HOSTS); use one of those hosts or ask the owner to add it.", o.host)
	}
	return nil
}

// nilIfNone keeps a nil *Refusal from becoming a non-nil error.
func nilIfNone(r *Refusal) error {
	if r == nil {
		return nil
	}
	return r
}

func hostClass(h host) Class {
	if h.isIP() {
		return Classify(h.addr)
	}
	return nameClass(h.bare())
}

// parseURL reads raw the way a browser would, or refuses it when the two
// could disagree. It returns a nil URL and nil refusal for about:blank.
func parseURL(raw string) (*url.URL, origin, *Refusal) {
	raw = strings.Trim(raw, "\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f ")
	if len(raw) > maxURL || strings.ContainsFunc(raw, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '\\' }) {
		return nil, origin{}, refuse(CodeBadURL, "That URL has characters browsers rewrite (controls or backslashes), or is too long; send a plain http or https URL.")
	}
	u, err := url.Parse(escapeStrayPercent(raw))
	if err != nil {
		return nil, origin{}, refuse(CodeBadURL, "That is not a valid URL; send a full http or https URL, like https://example.com/.")
	}
	if blank, ref := checkScheme(u); blank || ref != nil {
		return nil, origin{}, ref
	}
	if u.Opaque != "" || u.Host == "" {
		return nil, origin{}, refuse(CodeBadURL, "That URL has no host after the scheme; write it as %s://host/path.", u.Scheme)
	}
	if u.User != nil {
		return nil, origin{}, refuse(CodeBadURL, "URLs carrying a user name or password are refused; send the URL without the part before @.")
	}
	h, err := parseHost(u.Hostname())
	if err != nil {
		return nil, origin{}, refuse(CodeBadURL, "The host in that URL is not one a browser would read the same way; send a plain host name or address.")
	}
	port, ok := parsePort(u.Port(), u.Scheme)
	if !ok {
		return nil, origin{}, refuse(CodeBadURL, "The port in that URL is out of range; ports run from 1 to 65535.")
	}
	return u, origin{scheme: u.Scheme, host: h, port: port}, nil
}

// checkScheme passes http and https, reports about:blank, and refuses the rest.
func checkScheme(u *url.URL) (blank bool, ref *Refusal) {
	switch u.Scheme {
	case "http", "https":
		return false, nil
	case "about":
		if u.Opaque == "blank" && u.RawQuery == "" && u.Fragment == "" {
			return true, nil
		}
	}
	return false, refuse(CodeSchemeNotAllowed, "Only http and https pages can be opened, not %q; use an http or https URL.", u.Scheme+":")
}

// escapeStrayPercent writes a '%' that starts no escape as %25. Browsers
// leave such a '%' alone where Go's parser refuses the whole URL; in the
// host, the result still fails the host check.
func escapeStrayPercent(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && (i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2])) {
			b.WriteString("%25")
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// Preview reports whether raw is one of the owner's preview origins, as
// written, and not buddi's own address: such a URL is never gated by site
// approval, page-link rules or air-gap.
func (p *Policy) Preview(raw string) bool {
	u, o, ref := parseURL(raw)
	return ref == nil && u != nil && p.r.isPreview(o, u.Hostname())
}

// Reach is what the rules let the browser open, for agents' descriptions:
// whether air-gap is on, the host list (nil: any public host) and the
// preview origins as configured.
func (p *Policy) Reach() (airGap bool, hosts, previews []string) {
	for h := range p.r.hosts {
		hosts = append(hosts, h)
	}
	slices.Sort(hosts)
	for _, o := range p.r.preview {
		previews = append(previews, o.String())
	}
	return p.r.airGap, hosts, previews
}

// Masked tells the policy of values masked in what an agent read: from
// now on, no URL may carry one (see Known).
func (p *Policy) Masked(values []string) { p.r.known.Saw(values) }

// AirGapped reports whether air-gap is on.
func (p *Policy) AirGapped() bool { return p.r.airGap }

// CheckInput checks that input may go to a page at pageURL: under air-gap
// only the owner's preview origins (and blank pages) take clicks, typing or
// submissions. Reads of a page already loaded are never refused here.
func (p *Policy) CheckInput(pageURL string) error {
	if !p.r.airGap || pageURL == "" || pageURL == "about:blank" {
		return nil
	}
	if u, o, ref := parseURL(pageURL); ref == nil && u != nil && p.r.isPreview(o, u.Hostname()) {
		return nil
	}
	return refuse(CodeAirGap, "Air-gap is on, so the agent may only read this page, not click, type or submit on it; ask the owner to turn air-gap off.")
}
