package sim

import (
	"net/url"
	"strings"
	"sync/atomic"

	"github.com/buddi-dev/buddi/drivers"
)

// Origin is the only site the simulation serves.
const Origin = "https://" + host

// host is the simulated site's host: a name under .localhost, so the
// site can be an owner's preview origin and pass the real URL rules.
const host = "sim.localhost"

// BlankURL is where a new tab starts.
const BlankURL = "about:blank"

// site holds the page templates, built on first use. Slots [0,pages) are
// /p/<n>, [pages,2·pages) are /form/<n>, and 2·pages is /done.
type site struct {
	origin          string // https://host
	pages, elements int
	seed            int64
	tmpl            []atomic.Pointer[page]
}

var blank = &page{url: BlankURL}

func newSite(cfg Config, origin string) *site {
	return &site{origin: origin, pages: cfg.Pages, elements: cfg.Elements, seed: cfg.Seed, tmpl: make([]atomic.Pointer[page], 2*cfg.Pages+1)}
}

// sites are the simulated site and its copies at Config.Hosts, by host.
type sites map[string]*site

func newSites(cfg Config) sites {
	all := sites{host: newSite(cfg, Origin)}
	for _, h := range cfg.Hosts {
		all[h] = newSite(cfg, "https://"+h)
	}
	return all
}

// resolve turns a URL an agent asked for into a page of one of the sites,
// following Config.Redirects first, or a navigation_failed refusal that
// says where the simulation's pages are.
func (all sites) resolve(raw string, redirects map[string]string) (*page, error) {
	if to, ok := redirects[raw]; ok {
		raw = to
	}
	if raw == BlankURL {
		return blank, nil
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, drivers.Errorf(drivers.CodeNavFailed, err, "%q is not an absolute URL; navigate to a full URL such as %s/p/0.", raw, Origin)
	}
	s := all[u.Hostname()]
	if (u.Scheme != "https" && u.Scheme != "http") || s == nil {
		return nil, drivers.Errorf(drivers.CodeNavFailed, nil, "%s cannot be reached in the simulation; only %s pages exist, start at %s/p/0.", u.Host, Origin, Origin)
	}
	p, ok := s.path(u.Path)
	if !ok {
		return nil, drivers.Errorf(drivers.CodeNavFailed, nil, "%s has no page at %s; start at %s/p/0.", s.origin, u.Path, s.origin)
	}
	return p, nil
}

// page returns template slot i, building it on first use. Two callers racing
// may both build it; one result wins and the other is garbage.
func (s *site) page(i int) *page {
	if p := s.tmpl[i].Load(); p != nil {
		return p
	}
	s.tmpl[i].CompareAndSwap(nil, s.build(i))
	return s.tmpl[i].Load()
}

// path resolves a site path ("/p/3", "/form/2", "/done", "/") to a template.
func (s *site) path(path string) (*page, bool) {
	switch path {
	case "", "/":
		return s.page(0), true
	case "/done":
		return s.page(2 * s.pages), true
	}
	if n, ok := s.number(path, "/p/"); ok {
		return s.page(n), true
	}
	if n, ok := s.number(path, "/form/"); ok {
		return s.page(s.pages + n), true
	}
	return nil, false
}

func (s *site) number(path, prefix string) (int, bool) {
	rest, ok := strings.CutPrefix(path, prefix)
	if !ok {
		return 0, false
	}
	if rest == "" || len(rest) > 9 || (rest[0] == '0' && len(rest) > 1) {
		return 0, false
	}
	n := 0
	for _, c := range []byte(rest) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, n < s.pages
}
