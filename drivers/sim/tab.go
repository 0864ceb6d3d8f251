package sim

import (
	"slices"
	"time"

	"github.com/buddi-dev/buddi/drivers"
)

// tab is one browser tab: its history of shared page templates and what the
// conversation typed into the current page.
type tab struct {
	id      string
	hist    []*page
	pos     int
	vals    state     // form values on the current page; nil when untouched
	loading time.Time // when a pending load completes; zero when loaded
	// seen is how the latest observation read the tab: a target picked by
	// what it is needs that read to give the same tree again.
	seen drivers.ObserveOptions
	// last is the refs of the latest observation, of page at the nodes
	// shown: an observation of the same nodes hands the same map out again
	// (nobody changes an observation's refs).
	last struct {
		page  *page
		shown []int32
		refs  map[string]drivers.Element
	}
}

// refsOf is the refs of page p's nodes shown, as the tab's latest read of
// the same nodes, or the page's default read (page.first), handed them out
// when it was that read.
func (tb *tab) refsOf(p *page, shown []int32) map[string]drivers.Element {
	if v := p.first.Load(); v.sameShown(shown) {
		return v.refs
	}
	if l := &tb.last; l.page == p && slices.Equal(l.shown, shown) {
		return l.refs
	}
	refs := elementsOf(p, shown)
	tb.last.page, tb.last.shown, tb.last.refs = p, shown, refs
	return refs
}

// elementsOf is the refs of page p's nodes shown, each described as the
// real driver describes an element.
func elementsOf(p *page, shown []int32) map[string]drivers.Element {
	refs := make(map[string]drivers.Element, len(shown))
	for _, i := range shown {
		nd := &p.nodes[i]
		tg := drivers.Element{Ref: nd.ref, Role: nd.role, Name: nd.name, Fingerprint: nd.fp}
		if nd.editable() {
			tg.Label = nd.name
		} else {
			tg.Text = nd.name
		}
		refs[nd.ref] = tg
	}
	return refs
}

var noLoad time.Time

func (tb *tab) page() *page { return tb.hist[tb.pos] }

// loaded reports whether the current page finished loading by now.
func (tb *tab) loaded() bool {
	return tb.loading.IsZero() || !time.Now().Before(tb.loading)
}

// move says where a committed navigation goes in the history.
type move int8

const (
	push    move = iota // a new entry after the current one
	back                // the entry before
	forward             // the entry after
)

// commit makes p the tab's page. until is when its load completes (zero when
// already loaded). The caller holds t.mu.
func (t *Tabs) commit(tb *tab, p *page, m move, until time.Time) {
	switch {
	case m == back && tb.pos > 0 && tb.hist[tb.pos-1] == p:
		tb.pos--
	case m == forward && tb.pos+1 < len(tb.hist) && tb.hist[tb.pos+1] == p:
		tb.pos++
	case m == push && tb.page() == p: // a reload keeps the entry
	default:
		tb.hist = append(tb.hist[:tb.pos+1], p)
		if len(tb.hist) > historyMax {
			tb.hist = append(tb.hist[:0], tb.hist[len(tb.hist)-historyMax:]...)
		}
		tb.pos = len(tb.hist) - 1
	}
	tb.vals, tb.loading = nil, until
	if p.consoleErr != "" {
		if len(t.console) == consoleMax {
			t.console = append(t.console[:0], t.console[1:]...)
		}
		t.console = append(t.console, p.consoleErr)
	}
	t.touch()
}

// set applies an input's effect on a field. The caller holds t.mu.
func (tb *tab) set(e effect) {
	switch {
	case e.field < 0:
	case e.value == "":
		delete(tb.vals, e.field)
	default:
		if tb.vals == nil {
			tb.vals = make(state, 4)
		}
		tb.vals[e.field] = e.value
	}
}
