package sim

import (
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/buddi-dev/buddi/drivers"
)

// page is one immutable page template, shared by every conversation.
type page struct {
	site       *site // the site the page belongs to: its links lead there
	url, title string
	nodes      []node
	tree       string // rendered with no conversation state
	lines      int32  // lines in tree
	text       string // visible text, for dom and wait_for text
	consoleErr string // logged to the console when the page loads; "" for none
	// first is the page's default read (the viewport and the outline, no
	// conversation state): made by the first tab to read it so, and
	// handed to every later one, since that read is the same for all.
	first atomic.Pointer[view]
}

// view is one read of a page: its tree, the nodes it shows and their
// refs. Nobody changes one, so tabs share it.
type view struct {
	tree  string
	shown []int32
	refs  map[string]drivers.Element
}

// sameShown reports whether shown is v's own list of nodes (not merely an
// equal one): the read that gave it was v.
func (v *view) sameShown(shown []int32) bool {
	return v != nil && len(shown) > 0 && len(shown) == len(v.shown) && &shown[0] == &v.shown[0]
}

// index resolves a ref ("e12") to a node index.
func (p *page) index(ref string) (int32, bool) {
	num, ok := strings.CutPrefix(ref, "e")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 || n > len(p.nodes) {
		return 0, false
	}
	return int32(n - 1), true
}

// selected is the option selected in combobox combo: the one named by the
// conversation's state, else the first.
func (p *page) selected(combo int32, st state) int32 {
	want, ok := st[combo]
	for i := combo + 1; i < int32(len(p.nodes)) && p.nodes[i].combo == combo; i++ {
		if !ok || p.nodes[i].name == want {
			return i
		}
	}
	return -1
}

// option finds the option of combobox combo whose label or value is v.
func (p *page) option(combo int32, v string) (int32, bool) {
	for i := combo + 1; i < int32(len(p.nodes)) && p.nodes[i].combo == combo; i++ {
		if n := &p.nodes[i]; n.name == v || n.value == v {
			return i, true
		}
	}
	return 0, false
}

// matches reports whether a wait_for selector finds an element on p. The
// simulation understands roles ("button"), a few tag names ("a", "input",
// "h1") and "text=<substring>".
func (p *page) matches(selector string) bool {
	if text, ok := strings.CutPrefix(selector, "text="); ok {
		return strings.Contains(p.text, text)
	}
	role := selector
	if r, ok := tagRoles[selector]; ok {
		role = r
	}
	for i := range p.nodes {
		if p.nodes[i].role == role {
			return true
		}
	}
	return false
}

var tagRoles = map[string]string{
	"a": "link", "input": "textbox", "select": "combobox", "nav": "navigation",
	"header": "banner", "footer": "contentinfo", "p": "paragraph", "ul": "list", "li": "listitem",
	"h1": "heading", "h2": "heading", "h3": "heading", "td": "cell", "th": "columnheader", "tr": "row",
}
