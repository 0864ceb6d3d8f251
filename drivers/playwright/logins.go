package playwright

import (
	"context"
	"net/netip"
	"regexp"
	"sort"
	"strings"
	"time"

	pw "github.com/mxschmitt/playwright-go"
	"golang.org/x/net/publicsuffix"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

var _ drivers.Logins = (*Driver)(nil)

// Logins lists the sites holding a login in the profile: cookies that
// outlive the browser (session cookies do not count), grouped by site (the
// registrable domain; an IP address or a name without a public suffix is
// its own site). The browser launches if it is not running.
func (d *Driver) Logins(ctx context.Context) ([]messages.Login, error) {
	b, err := d.running(ctx)
	if err != nil {
		return nil, err
	}
	cookies, err := call(ctx, func() ([]pw.Cookie, error) { return b.bctx.Cookies() })
	if err != nil {
		return nil, fail(drivers.CodeNoBrowser, err, "The browser's cookies could not be read; try again.")
	}
	bySite := map[string]*messages.Login{}
	for _, c := range cookies {
		if c.Expires <= 0 {
			continue
		}
		site := cookieSite(c.Domain)
		l := bySite[site]
		if l == nil {
			l = &messages.Login{Site: site}
			bySite[site] = l
		}
		l.Cookies++
		if exp := time.Unix(int64(c.Expires), 0).UTC(); exp.After(l.Expires) {
			l.Expires = exp
		}
	}
	out := make([]messages.Login, 0, len(bySite))
	for _, l := range bySite {
		out = append(out, *l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Site < out[j].Site })
	return out, nil
}

// SignOut clears every cookie of site and its subdomains, or every cookie
// of the profile when site is "", and returns the sites that held a login.
func (d *Driver) SignOut(ctx context.Context, site string) ([]string, error) {
	before, err := d.Logins(ctx)
	if err != nil {
		return nil, err
	}
	var cleared []string
	for _, l := range before {
		if site == "" || l.Site == site {
			cleared = append(cleared, l.Site)
		}
	}
	b, err := d.running(ctx)
	if err != nil {
		return nil, err
	}
	err = do(ctx, func() error {
		if site == "" {
			return b.bctx.ClearCookies()
		}
		return b.bctx.ClearCookies(pw.BrowserContextClearCookiesOptions{Domain: domainPattern(site)})
	})
	if err != nil {
		return nil, fail(drivers.CodeNoBrowser, err, "The browser's cookies could not be cleared; try again.")
	}
	if cleared == nil {
		cleared = []string{}
	}
	return cleared, nil
}

// running returns the launched browser, launching it if needed.
func (d *Driver) running(ctx context.Context) (*browser, error) {
	ctx, cancel := withDefault(ctx, 60*time.Second)
	defer cancel()
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.ready(ctx); err != nil {
		return nil, err
	}
	return d.b, nil
}

// cookieSite is the site a cookie's domain belongs to.
func cookieSite(domain string) string {
	host := strings.ToLower(strings.TrimPrefix(domain, "."))
	if _, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return host
	}
	if site, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
		return site
	}
	return host
}

// domainPattern matches a cookie domain of site or any subdomain, with or
// without the leading dot of a domain cookie.
func domainPattern(site string) *regexp.Regexp {
	return regexp.MustCompile(`^\.?(.+\.)?` + regexp.QuoteMeta(strings.ToLower(site)) + `$`)
}
