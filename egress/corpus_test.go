package egress_test

import (
	"html"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/egress"
)

// docSite is documentation on this machine and the site it is published at,
// so that its relative links read as the real URLs they are.
type docSite struct {
	dir, base string
}

// docSites are the pages scripts/pages.sh (--bench) unpacks, and Go's
// specification, which ships with Go.
func docSites() []docSite {
	pages := os.Getenv("BUDDI_TEST_PAGES")
	if pages == "" {
		if cache, err := os.UserCacheDir(); err == nil {
			pages = filepath.Join(cache, "buddi", "pages")
		}
	}
	goroot, _ := exec.Command("go", "env", "GOROOT").Output()
	return []docSite{
		{filepath.Join(strings.TrimSpace(string(goroot)), "doc"), "https://go.dev/doc/"},
		{filepath.Join(pages, "rust-book"), "https://doc.rust-lang.org/book/"},
		{"/usr/share/doc/python3/html", "https://docs.python.org/3/"},
	}
}

var linkAttr = regexp.MustCompile(`(?i)\b(?:href|src|action)\s*=\s*(?:"([^"]*)"|'([^']*)')`)

// corpus is every distinct http(s) URL the documentation's pages link to or
// load, relative ones resolved against the page's published address.
func corpus(t *testing.T, sites []docSite) []string {
	t.Helper()
	seen := map[string]bool{}
	for _, site := range sites {
		base, _ := url.Parse(site.base)
		dir, err := filepath.EvalSymlinks(site.dir) // Debian links python3's to python3.x's
		if err != nil {
			continue
		}
		_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".html") {
				return nil //nolint:nilerr // a part missing is a smaller corpus, which the test reports
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return nil //nolint:nilerr // as above
			}
			rel, _ := filepath.Rel(dir, path)
			page := base.ResolveReference(&url.URL{Path: filepath.ToSlash(rel)})
			for _, m := range linkAttr.FindAllStringSubmatch(string(b), -1) {
				u, err := page.Parse(html.UnescapeString(m[1] + m[2]))
				if err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
					seen[u.String()] = true
				}
			}
			return nil
		})
	}
	out := make([]string, 0, len(seen))
	for u := range seen {
		out = append(out, u)
	}
	slices.Sort(out)
	return out
}

// TestFewOrdinaryURLsLookLikeSecrets measures the secret scan's false
// positives on real URLs: every link and asset of the documentation on
// this machine (run scripts/pages.sh --bench for all of it). Fewer than
// 0.5 % may be refused.
func TestFewOrdinaryURLsLookLikeSecrets(t *testing.T) {
	sites := docSites()
	urls := corpus(t, sites)
	if len(urls) < 1000 {
		t.Skipf("only %d URLs in the documentation here; run scripts/pages.sh --bench", len(urls))
	}
	p := newPolicy(t, egress.Config{Known: egress.NewKnown()})
	var refused []string
	elsewhere, refusedElsewhere := 0, 0 // links off the documentation's own sites
	for _, u := range urls {
		off := !ownSite(sites, u)
		if off {
			elsewhere++
		}
		if egress.CodeOf(p.CheckURL(u, egress.SourceAgent)) == egress.CodeSecretInURL {
			refused = append(refused, u)
			if off {
				refusedElsewhere++
			}
		}
	}
	rate := 100 * float64(len(refused)) / float64(len(urls))
	t.Logf("%d of %d distinct URLs refused (%.3f %%); of the %d to other sites, %d (%.3f %%)", len(refused), len(urls), rate,
		elsewhere, refusedElsewhere, 100*float64(refusedElsewhere)/float64(max(elsewhere, 1)))
	for _, u := range refused {
		t.Logf("refused: %s", u)
	}
	if rate >= 0.5 {
		t.Errorf("%.3f %% of ordinary URLs were refused as carrying a secret, want under 0.5 %%", rate)
	}
}

func ownSite(sites []docSite, raw string) bool {
	for _, s := range sites {
		if strings.HasPrefix(raw, s.base) {
			return true
		}
	}
	return false
}
