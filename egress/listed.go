package egress

// Listed reports whether the page at pageURL is on the install's browser
// hosts: any http or https page when BUDDI_BROWSER_HOSTS is unset, else
// only a page whose host is one of them, exactly. A URL it cannot read,
// and a blank page, are never listed. Surfaces that send a page's picture
// off the machine check it here first.
func (p *Policy) Listed(pageURL string) bool {
	u, o, ref := parseURL(pageURL)
	if ref != nil || u == nil {
		return false
	}
	return p.r.hosts == nil || p.r.hosts[o.host.String()]
}
