package playwright

import (
	"context"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/cdp"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/messages"
)

// Logins: the sites that hold cookies, or data they stored, in the agents'
// profile, read from the browser itself (it holds what it has not yet
// written to disk). A site is a registrable domain, or a bare IP or
// localhost host. Stored data is found for the origins the browser opened
// since it started and those whose databases are on disk; local storage on
// its own is cleared on sign-out but not listed, since the browser reports
// it only for a page that is open.

var _ drivers.Logins = (*Driver)(nil)

// origins is every http(s) origin a document of this browser was at.
type origins struct {
	mu  sync.Mutex
	set map[string]bool
}

func (o *origins) add(raw string) {
	origin := messages.Origin(raw)
	if !strings.HasPrefix(origin, "http://") && !strings.HasPrefix(origin, "https://") {
		return
	}
	o.mu.Lock()
	if o.set == nil {
		o.set = map[string]bool{}
	}
	o.set[origin] = true
	o.mu.Unlock()
}

func (o *origins) list() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make([]string, 0, len(o.set))
	for k := range o.set {
		out = append(out, k)
	}
	return out
}

// siteOfHost is the site a host belongs to, as logins are listed.
func siteOfHost(h string) string {
	h = strings.TrimPrefix(strings.ToLower(h), ".")
	if _, err := netip.ParseAddr(strings.Trim(h, "[]")); err == nil || h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return h
	}
	if s := egress.SiteOf(&url.URL{Scheme: "https", Host: h}); s.Domain != "" {
		return s.Domain
	}
	return h
}

// store is what the profile holds: cookies by site and origins with data.
type store struct {
	b       *browser // the browser it was read from
	cookies map[string][]pw.Cookie
	data    map[string][]string // site → origins holding data
	origins []string            // every origin worth clearing
}

// loginsTimeout bounds one browser call of a listing or a sign-out.
const loginsTimeout = 20 * time.Second

// read gathers the profile's cookies and stored data through the browser.
func (d *Driver) read(ctx context.Context, b *browser, s pw.CDPSession) (*store, error) {
	cs, err := call(ctx, func() ([]pw.Cookie, error) { return b.bctx.Cookies() })
	if err != nil {
		return nil, fail(drivers.CodeNotAnswering, err, "The browser did not list its cookies in time; try again.")
	}
	st := &store{b: b, cookies: map[string][]pw.Cookie{}, data: map[string][]string{}}
	cand := map[string]bool{}
	for _, c := range cs {
		site := siteOfHost(c.Domain)
		st.cookies[site] = append(st.cookies[site], c)
		h := strings.TrimPrefix(c.Domain, ".")
		cand["https://"+h], cand["http://"+h] = true, true
	}
	for _, o := range append(b.visited.list(), diskOrigins(b.profile)...) {
		cand[o] = true
	}
	for o := range cand {
		st.origins = append(st.origins, o)
		if usage(ctx, s, o) > 0 {
			u, _ := url.Parse(o)
			site := siteOfHost(u.Hostname())
			st.data[site] = append(st.data[site], o)
		}
	}
	slices.Sort(st.origins)
	return st, nil
}

// usage is the bytes an origin keeps in quota-managed storage (databases,
// caches, file systems), or 0 when the browser cannot tell.
func usage(ctx context.Context, s pw.CDPSession, origin string) float64 {
	r, err := call(ctx, func() (any, error) { return send(s, cdp.UsageAndQuota{Origin: origin}) })
	if err != nil {
		return 0
	}
	m, _ := r.(map[string]any)
	n, _ := m["usage"].(float64)
	return n
}

// diskOrigins are the origins whose databases are in the profile on disk
// (Default/IndexedDB/<scheme>_<host>_<port>.indexeddb.leveldb).
func diskOrigins(profile string) []string {
	ents, err := os.ReadDir(filepath.Join(profile, "Default", "IndexedDB"))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ".indexeddb.leveldb")
		parts := strings.Split(name, "_")
		if !ok || len(parts) != 3 || (parts[0] != "http" && parts[0] != "https") {
			continue
		}
		o := parts[0] + "://" + parts[1]
		if (parts[0] != "https" || parts[2] != "443") && (parts[0] != "http" || parts[2] != "80") {
			o += ":" + parts[2]
		}
		out = append(out, o)
	}
	return out
}

// Logins lists the sites holding cookies or stored data in the profile,
// starting the browser if it is not running.
func (d *Driver) Logins(ctx context.Context) (messages.Logins, error) {
	var out messages.Logins
	err := d.withStore(ctx, func(_ pw.CDPSession, st *store) error {
		sites := map[string]*messages.Login{}
		at := func(site string) *messages.Login {
			if sites[site] == nil {
				sites[site] = &messages.Login{Site: site}
			}
			return sites[site]
		}
		for site, cs := range st.cookies {
			at(site).Cookies = len(cs)
		}
		for site := range st.data {
			at(site).Storage = true
		}
		for _, l := range sites {
			out = append(out, *l)
		}
		slices.SortFunc(out, func(a, b messages.Login) int { return strings.Compare(a.Site, b.Site) })
		return nil
	})
	return out, err
}

// SignOut clears one site's cookies and stored data from the profile, or
// every site's when site is "", and names the sites that held any.
func (d *Driver) SignOut(ctx context.Context, site string) ([]string, error) {
	var cleared []string
	err := d.withStore(ctx, func(s pw.CDPSession, st *store) error {
		if err := clearOrigins(ctx, s, st, site); err != nil {
			return err
		}
		if err := st.b.clearCookies(ctx, st, site); err != nil {
			return err
		}
		cleared = st.held(site)
		return nil
	})
	return cleared, err
}

// held names the sites holding cookies or data, of site ("" for all).
func (st *store) held(site string) []string {
	held := map[string]bool{}
	for k := range st.cookies {
		held[k] = true
	}
	for k := range st.data {
		held[k] = true
	}
	var out []string
	for k := range held {
		if site == "" || k == site {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// clearOrigins clears everything the origins of site ("" for all) keep.
func clearOrigins(ctx context.Context, s pw.CDPSession, st *store, site string) error {
	for _, o := range st.origins {
		u, _ := url.Parse(o)
		if site != "" && siteOfHost(u.Hostname()) != site {
			continue
		}
		if _, err := call(ctx, func() (any, error) {
			return send(s, cdp.ClearDataForOrigin{Origin: o, StorageTypes: "all"})
		}); err != nil {
			return fail(drivers.CodeNotAnswering, err, "The browser did not clear "+o+" in time; try again.")
		}
	}
	return nil
}

// clearCookies removes the cookies of site ("" for all) one by one.
func (b *browser) clearCookies(ctx context.Context, st *store, site string) error {
	for k, cs := range st.cookies {
		if site != "" && k != site {
			continue
		}
		for _, c := range cs {
			if err := do(ctx, func() error {
				return b.bctx.ClearCookies(pw.BrowserContextClearCookiesOptions{Name: c.Name, Domain: c.Domain, Path: c.Path})
			}); err != nil {
				return fail(drivers.CodeNotAnswering, err, "The browser did not clear the cookies of "+k+" in time; try again.")
			}
		}
	}
	return nil
}

// withStore runs f with the browser's store read, on a blank page of its
// own that is closed afterwards; the browser is started if it is not
// running.
func (d *Driver) withStore(ctx context.Context, f func(pw.CDPSession, *store) error) error {
	ctx, cancel := withDefault(ctx, 90*time.Second)
	defer cancel()
	if _, err := d.Ready(ctx); err != nil {
		return err
	}
	d.mu.Lock()
	b := d.b
	d.mu.Unlock()
	if b == nil || b.dead.Load() {
		return fail(drivers.CodeStarting, nil, "The browser stopped as its logins were read; try again in a few seconds.")
	}
	c, cancelCall := context.WithTimeout(ctx, loginsTimeout)
	defer cancelCall()
	p, err := b.newPage(c)
	if err != nil {
		return fail(drivers.CodeNoBrowser, err, "The browser did not open a page to read its logins; try again.")
	}
	defer closeSoon(p)
	s, err := call(c, func() (pw.CDPSession, error) { return b.bctx.NewCDPSession(p) })
	if err != nil {
		return fail(drivers.CodeNoBrowser, err, "The browser did not answer; try again.")
	}
	st, err := d.read(c, b, s)
	if err != nil {
		return err
	}
	return f(s, st)
}
