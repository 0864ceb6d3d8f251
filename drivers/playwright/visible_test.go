package playwright_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
)

// visiblePage holds one of each way an element can be in the document, in
// the viewport's area, and still not be seen.
func visiblePage() string {
	var toc strings.Builder
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&toc, `<li><a href="/ch/%d">Chapter %d</a></li>`, i, i)
	}
	return `<main><h1>Visible means visible</h1>
<nav aria-label="Contents" style="height:200px;overflow:auto"><ul>` + toc.String() + `</ul></nav>
<p>Read on. <button>Covered</button> <button style="visibility:hidden">Invisible</button>
<a href="/zero" style="display:inline-block;width:0;height:0;overflow:hidden">Zero</a>
<button hidden>Gone</button></p></main>
<div style="position:fixed;left:0;right:0;top:200px;height:60px;background:#eee">Cookies? <button>Accept</button></div>
<div style="margin-top:3000px;height:40px"><a href="/next" style="position:fixed;right:8px;bottom:8px">Next page</a></div>`
}

func TestVisibleMeansVisible(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/v", "Visible", visiblePage())
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/v")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	tree := obs.Tree
	for want, why := range map[string]string{
		`link "Chapter 1" [ref=`:      "the first entries of the scrolled box are on screen",
		`link "Next page" [ref=`:      "a fixed link whose parent lies below the fold is on screen",
		`button "Accept" [ref=`:       "the fixed cookie bar's button is on screen",
		`button "Invisible" [ref=e`:   "a visibility:hidden button is named",
		`link "Zero" [ref=`:           "a zero-sized link is named",
		`navigation "Contents" [ref=`: "the scrolled box is in the outline",
	} {
		if !strings.Contains(tree, want) {
			t.Errorf("%s, but %q is not in:\n%s", why, want, tree)
		}
	}
	for line, flag := range map[string]string{`button "Invisible"`: "[hidden=invisible]", `link "Zero"`: "[hidden=zero-size]",
		`link "Next page"`: "[fixed]", `button "Accept"`: "[fixed]"} {
		if l := lineWith(tree, line); !strings.Contains(l, flag) {
			t.Errorf("%s: want %s, got %q", line, flag, l)
		}
	}
	if strings.Contains(tree, `link "Chapter 40"`) || strings.Contains(tree, `"Gone"`) {
		t.Errorf("a link clipped by the scrolled box, or a [hidden] button, is listed:\n%s", tree)
	}
}

func TestCoveredIsNotVisible(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/c", "Covered", `<p style="margin-top:220px"><button>Buy</button> <a href="/x">Free</a></p>
<div style="position:fixed;left:0;top:200px;width:100%;height:80px;background:#eee">We use cookies. <button>Accept</button></div>`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/c")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	if l := lineWith(obs.Tree, `button "Buy"`); !strings.Contains(l, "[hidden=covered]") {
		t.Fatalf("a button under the cookie bar: %q in\n%s", l, obs.Tree)
	}
	if l := lineWith(obs.Tree, `button "Accept"`); strings.Contains(l, "[hidden") || !strings.Contains(l, "[fixed]") {
		t.Fatalf("the cookie bar's own button: %q", l)
	}
	buy := target(t, obs, "button", "Buy")
	if buy.Fingerprint == "" {
		t.Fatalf("a covered element still gets a ref an agent may scroll to: %+v", buy)
	}
}

func lineWith(tree, s string) string {
	for _, l := range strings.Split(tree, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}
