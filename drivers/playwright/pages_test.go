package playwright_test

import (
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/playwright"
	"github.com/buddi-dev/buddi/drivers/playwright/browsertest"
)

// Real documentation, written by others, served on 127.0.0.1 (see
// browsertest.Docs): Go's language specification and The Rust Programming
// Language, an mdBook.

// onDocs serves the documentation, opens a conversation of its own and
// navigates it to path (such as /ref/spec or /book/ch04-01-what-is-ownership.html).
func onDocs(t *testing.T, path string) (drivers.Tabs, *site) {
	t.Helper()
	s := newSite(t)
	docs := browsertest.NewDocs(t).Mux
	s.mux.Handle("/ref/", docs)
	s.mux.Handle("/book/", docs)
	s.mux.Handle("/py/", docs)
	tabs := openConv(t, sharedDriver(t), t.Name())
	navigate(t, tabs, s.URL+path)
	return tabs, s
}

const ownership = "/book/ch04-01-what-is-ownership.html"

var outlineLine = regexp.MustCompile(`- navigation "Table of contents" \[ref=(e\d+)\][^:]*: (\d+) links`)

// The failure this catches: the default observation of a book page spent
// on the sidebar's table of contents (hundreds of links in a scrolled box,
// off screen) while the article a person reads was barely there.
func TestBookSidebarDoesNotCrowdOutTheArticle(t *testing.T) {
	tabs, _ := onDocs(t, ownership)
	obs := observe(t, tabs, drivers.ObserveOptions{})
	if len(obs.Tree) > 4096 {
		t.Fatalf("the default observation is %d bytes, more than 4 KB:\n%s", len(obs.Tree), obs.Tree)
	}
	for _, want := range []string{`heading "What Is Ownership?"`, "paragraph: Ownership is a set of rules", `heading "The Stack and the Heap"`} {
		if !strings.Contains(obs.Tree, want) {
			t.Fatalf("the article a person sees is missing %q:\n%s", want, obs.Tree)
		}
	}
	// The table of contents scrolls inside the sidebar: its last entries are
	// not on screen and must not be listed as if they were.
	if strings.Contains(obs.Tree, `link "G - How Rust is Made`) || strings.Contains(obs.Tree, `link "Final Project`) {
		t.Fatalf("links clipped by the sidebar's scrolled box are listed:\n%s", obs.Tree)
	}
	m := outlineLine.FindStringSubmatch(obs.Tree)
	if m == nil {
		t.Fatalf("the outline does not say how many links the table of contents holds:\n%s", obs.Tree)
	}
	// Within the table of contents, part after part, every entry is reachable.
	toc := target(t, obs, "navigation", "Table of contents")
	text := readAll(t, tabs, drivers.ObserveOptions{Within: toc, MaxChars: 3000})
	if n, _ := strconv.Atoi(m[2]); strings.Count(text, "- link ") != n || !strings.Contains(text, `link "G - How Rust is Made and “Nightly Rust”"`) {
		t.Fatalf("within %s gave %d links, the outline said %s:\n%s", m[1], strings.Count(text, "- link "), m[2], tail(text))
	}
}

// readAll reads a fullPage or within read to its end, following each
// continuation, and returns the parts joined. Every part but the last must
// say how much is left.
func readAll(t *testing.T, tabs drivers.Tabs, opts drivers.ObserveOptions) string {
	t.Helper()
	var all strings.Builder
	seen := map[string]bool{}
	for part := 1; ; part++ {
		if part > 60 {
			t.Fatalf("no end after 60 parts")
		}
		obs := observe(t, tabs, opts)
		all.WriteString(obs.Tree)
		all.WriteByte('\n')
		for ref := range obs.Refs {
			if seen[ref] && (opts.After == nil || ref != opts.After.Ref) && !continued(obs.Tree, ref) {
				t.Fatalf("part %d repeats %s, shown in an earlier part", part, ref)
			}
			seen[ref] = true
		}
		c := obs.Continues
		if c == nil {
			return all.String()
		}
		if c.Left <= 0 || c.After == "" {
			t.Fatalf("part %d ends with a continuation that says nothing: %+v", part, c)
		}
		after, ok := obs.Refs[c.After]
		if !ok {
			t.Fatalf("the continuation names %s, which is not a ref of its observation", c.After)
		}
		opts.After = obs.Of(after)
	}
}

// shownTarget is the element with role and name whose line is not marked
// hidden, as an agent reading the tree would pick it.
func shownTarget(t *testing.T, obs *drivers.Observation, role, name string) *drivers.Target {
	t.Helper()
	for _, l := range strings.Split(obs.Tree, "\n") {
		m := lineRef.FindStringSubmatch(l)
		if m == nil || strings.Contains(l, "[hidden") {
			continue
		}
		if tg, ok := obs.Refs[m[1]]; ok && tg.Role == role && tg.Name == name {
			return obs.Of(tg)
		}
	}
	t.Fatalf("no shown %s %q in:\n%s", role, name, obs.Tree)
	return nil
}

var lineRef = regexp.MustCompile(`\[ref=(e\d+)\]`)

// continued reports whether ref is a region a part goes on with: its line
// is marked (continued).
func continued(tree, ref string) bool {
	for _, l := range strings.Split(tree, "\n") {
		if strings.Contains(l, "[ref="+ref+"]") {
			return strings.HasSuffix(l, "(continued):")
		}
	}
	return false
}

// The failure this catches: fullPage stopped at 50,000 characters in the
// middle of the article, with only a flag, before the page's own
// next/previous links; no read ever reached them.
func TestBookFullPageReachesNextChapter(t *testing.T) {
	tabs, _ := onDocs(t, ownership)
	first := observe(t, tabs, drivers.ObserveOptions{FullPage: true, MaxChars: 8000})
	if first.Continues == nil || !first.Continues.FullPage {
		t.Fatalf("an 8,000-character part of a long chapter has no continuation: %+v", first.Continues)
	}
	text := readAll(t, tabs, drivers.ObserveOptions{FullPage: true, MaxChars: 8000})
	if !strings.Contains(text, `link "Next chapter"`) || !strings.Contains(text, `heading "Return Values and Scope"`) {
		t.Fatalf("the full read does not reach the chapter's end and its next link:\n%s", tail(text))
	}
	obs := observe(t, tabs, drivers.ObserveOptions{Find: &drivers.Query{Role: "link", Name: "Next chapter", Exact: true}})
	next := shownTarget(t, obs, "link", "Next chapter")
	out := mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: next})
	if out.Result != drivers.Navigated || !strings.HasSuffix(out.URL, "ch04-02-references-and-borrowing.html") {
		t.Fatalf("clicking the found Next chapter link: %+v", out)
	}
}

// hiddenSidebar serves the chapter as a reader who closed the sidebar sees
// it: the fixed previous/next arrows at the window's edges. (mdBook's own
// start-up script restores that state; Debian's build of the book lacks it,
// so the test sets the two classes it would set.)
func hiddenSidebar(t *testing.T, s *site) string {
	t.Helper()
	resp, err := http.Get(s.URL + ownership)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	page := strings.Replace(string(body), `class="sidebar-visible no-js light"`, `class="sidebar-hidden js light"`, 1)
	s.mux.HandleFunc("/book/closed-sidebar.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, page)
	})
	return s.URL + "/book/closed-sidebar.html"
}

// The failure this catches: the fixed "Next chapter" arrow, on screen the
// whole time, was missing from the observation.
func TestBookFixedNextChapterIsListed(t *testing.T) {
	tabs, s := onDocs(t, ownership)
	navigate(t, tabs, hiddenSidebar(t, s))
	obs := observe(t, tabs, drivers.ObserveOptions{})
	if !strings.Contains(obs.Tree, `link "Next chapter" [ref=`) || !strings.Contains(obs.Tree, "[fixed]") {
		t.Fatalf("the fixed Next chapter arrow is not listed:\n%s", obs.Tree)
	}
	mustDo(t, tabs, &drivers.Action{Kind: drivers.Scroll, DeltaY: 3000})
	obs = observe(t, tabs, drivers.ObserveOptions{})
	next := target(t, obs, "link", "Next chapter")
	if out := mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: next}); !strings.HasSuffix(out.URL, "ch04-02-references-and-borrowing.html") {
		t.Fatalf("clicking the arrow after scrolling: %+v", out)
	}
}

// The failure this catches: on a long reference page, reaching one
// section's link took twenty calls of scrolling and reading.
func TestSpecFindAndWithin(t *testing.T) {
	tabs, _ := onDocs(t, "/ref/spec")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	if !strings.Contains(obs.Tree, `heading "Expressions" [level=2] [ref=`) {
		t.Fatalf("the outline does not name the Expressions section:\n%s", obs.Tree)
	}
	found := observe(t, tabs, drivers.ObserveOptions{Find: &drivers.Query{Role: "heading", Name: "Method values", Exact: true}})
	if !strings.Contains(found.Tree, "1 match") || !strings.Contains(found.Tree, `in: "Expressions" [ref=`) {
		t.Fatalf("find does not give the match with its place:\n%s", found.Tree)
	}
	section := target(t, found, "heading", "Method values")
	text := readAll(t, tabs, drivers.ObserveOptions{Within: section})
	if !strings.Contains(text, "is called a method value") || strings.Contains(text, `heading "Index expressions"`) {
		t.Fatalf("within the heading's section:\n%s", text)
	}
	links := observe(t, tabs, drivers.ObserveOptions{Find: &drivers.Query{Role: "link", Name: "method set"}})
	if !strings.Contains(links.Tree, "matches") {
		t.Fatalf("find links named method set:\n%s", links.Tree)
	}
	for ref := range links.Refs {
		if !refForm.MatchString(ref) {
			t.Fatalf("ref %q is not in the form e12", ref)
		}
	}
}

// The whole specification, part by part, to its last section.
func TestSpecFullPageIsPagedToTheEnd(t *testing.T) {
	tabs, _ := onDocs(t, "/ref/spec")
	text := readAll(t, tabs, drivers.ObserveOptions{FullPage: true})
	if !strings.Contains(text, `heading "Size and alignment guarantees"`) || !strings.Contains(text, `heading "Introduction"`) {
		t.Fatalf("the full read misses the first or the last section:\n%s", tail(text))
	}
}

var refForm = regexp.MustCompile(`^e\d+$`)

// The failure this catches: after the first navigation in a tab, refs came
// out as f1e5. Refs are e<n> and a number is never given to two elements.
func TestRefsKeepTheSpecFormAcrossNavigations(t *testing.T) {
	tabs, s := onDocs(t, "/ref/spec")
	byRef := map[string]string{}
	for _, u := range []string{s.URL + "/ref/spec", s.URL + ownership, s.URL + "/ref/spec"} {
		navigate(t, tabs, u)
		obs := observe(t, tabs, drivers.ObserveOptions{})
		if len(obs.Refs) < 10 {
			t.Fatalf("%s: only %d refs", u, len(obs.Refs))
		}
		for ref, tg := range obs.Refs {
			if !refForm.MatchString(ref) {
				t.Fatalf("%s: ref %q is not in the form e12", u, ref)
			}
			id := u + " " + tg.Role + " " + tg.Name
			if prev, ok := byRef[ref]; ok && prev != id {
				t.Fatalf("%s was %q and is now %q", ref, prev, id)
			}
			byRef[ref] = id
		}
	}
}

// The failure this catches: when an observation's budget ran out, controls
// on screen became "(3 more in view here: observe within e2)": a site's
// search box and its Go button, the link an agent needed. On every page of
// the task benchmark, at its top and further down, every control a person
// sees has its ref in the default observation.
func TestEveryControlInViewHasItsRef(t *testing.T) {
	if !browsertest.NewDocs(t).Python {
		t.Fatal("Python's documentation is not installed: run scripts/pages.sh --bench (scripts/testdeps.sh does)")
	}
	tabs, s := onDocs(t, "/ref/spec")
	for _, page := range browsertest.BenchPages {
		t.Run(page, func(t *testing.T) {
			navigate(t, tabs, s.URL+page)
			if strings.Contains(page, "search.html") { // its results come from a script
				mustDo(t, tabs, &drivers.Action{Kind: drivers.WaitFor, Wait: &drivers.WaitCond{Text: "Search finished"}})
			}
			for _, down := range []int{0, 2500, 9000} {
				if down > 0 {
					mustDo(t, tabs, &drivers.Action{Kind: drivers.Scroll, DeltaY: down})
				}
				obs := observe(t, tabs, drivers.ObserveOptions{})
				missing, err := playwright.MissingInView(testCtx(t), tabs, drivers.RefsIn(obs.Tree))
				if err != nil {
					t.Fatal(err)
				}
				if len(missing) > 0 {
					t.Errorf("%d px down, %d controls in view have no ref: %q\n%s", down, len(missing), missing, obs.Tree)
				}
			}
		})
	}
}
