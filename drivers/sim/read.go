package sim

import (
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/buddi-dev/buddi/drivers"
)

// A read is a span of a page's nodes rendered as tree lines. The simulation
// gives the same shapes as the real driver: the viewport and an outline of
// the rest, parts with a continuation, regions, and find.

// span appends nodes [from, to) to b as tree lines until maxChars of them,
// whole lines only. It returns b, the nodes shown and the first node not
// shown (to when all fit).
func (p *page) span(b []byte, st state, from, to int32, maxChars int) ([]byte, []int32, int32) {
	start := len(b)
	shown := make([]int32, 0, min(to-from, spanNodes))
	i := from
	for ; i < to; i++ {
		n := len(b)
		b = appendLine(b, p, i, st)
		if len(b)-start > maxChars && len(shown) > 0 {
			b = b[:n]
			break
		}
		shown = append(shown, i)
	}
	return b, shown, i
}

// spanNodes and lineBytes size a read's buffers: a viewport's worth of
// nodes, and about what one line of the tree takes.
const (
	spanNodes = 64
	lineBytes = 48
)

// readBuffer is room for the lines of nodes [from, to), up to maxChars
// and what follows them.
func readBuffer(from, to int32, maxChars int) []byte {
	n := min(int(to-from)*lineBytes, maxChars) + continuationChars
	if b := readBuffers.Get().(*[]byte); cap(*b) >= n {
		return (*b)[:0]
	}
	return make([]byte, 0, n)
}

// readBuffers keeps the buffers reads are written in: a read's text is
// copied into its string, so the buffer serves the next read.
var readBuffers = sync.Pool{New: func() any { return new([]byte) }}

// text is b as a string, b's buffer going back to readBuffers.
func text(b []byte) string {
	s := string(b)
	b = b[:0]
	readBuffers.Put(&b)
	return s
}

// end is the first node after node i's region: its subtree, or for a
// heading, its section up to the next heading or the end of its parent.
func (p *page) end(i int32) int32 {
	n := &p.nodes[i]
	j := i + 1
	for ; j < int32(len(p.nodes)); j++ {
		m := &p.nodes[j]
		if m.depth < n.depth || n.role != "heading" && m.depth == n.depth || n.role == "heading" && m.role == "heading" && m.depth == n.depth {
			break
		}
	}
	return j
}

// counts says how many links, fields and buttons nodes [from, to) hold.
func (p *page) counts(from, to int32) string {
	var links, fields, buttons int
	for i := from; i < to; i++ {
		switch p.nodes[i].role {
		case "link":
			links++
		case "button":
			buttons++
		case "textbox", "searchbox", "combobox", "checkbox":
			fields++
		}
	}
	var parts []string
	for _, c := range []struct {
		n         int
		one, many string
	}{{links, "link", "links"}, {fields, "field", "fields"}, {buttons, "button", "buttons"}} {
		switch {
		case c.n == 1:
			parts = append(parts, "1 "+c.one)
		case c.n > 1:
			parts = append(parts, strconv.Itoa(c.n)+" "+c.many)
		}
	}
	if len(parts) == 0 {
		return "text only"
	}
	return strings.Join(parts, ", ")
}

var outlined = map[string]bool{"banner": true, "navigation": true, "main": true, "contentinfo": true,
	"complementary": true, "form": true, "heading": true}

// outline appends the landmarks and headings from node from on to b,
// with what they hold and their refs.
func (p *page) outline(b []byte, from int32) ([]byte, []int32) {
	var refs []int32
	for i := from; i < int32(len(p.nodes)); i++ {
		n := &p.nodes[i]
		if !outlined[n.role] {
			continue
		}
		if len(refs) == 0 {
			b = append(b, "Elsewhere on the page (observe within a ref to read it, or find):\n- below the viewport:\n"...)
		}
		b = append(append(b, "  - "...), n.role...)
		if n.name != "" {
			b = append(append(append(b, " \""...), n.name...), '"')
		}
		if n.level > 0 {
			b = strconv.AppendInt(append(b, " [level="...), int64(n.level), 10)
			b = append(b, ']')
		}
		b = append(append(append(b, " [ref="...), n.ref...), "]: "...)
		b = append(append(b, p.counts(i+1, p.end(i))...), '\n')
		refs = append(refs, i)
	}
	return b, refs
}

// find lists the nodes matching q, each with its landmark and heading path.
func (p *page) find(q *drivers.Query) (string, []int32) {
	match := func(have, want string) bool {
		if want == "" {
			return true
		}
		if q.Exact {
			return have == want
		}
		return strings.Contains(strings.ToLower(have), strings.ToLower(want))
	}
	var lines []string
	var refs []int32
	for i := range p.nodes {
		n := &p.nodes[i]
		if q.Role != "" && n.role != q.Role || !match(n.name, q.Name) || q.Text != "" && !match(n.name+" "+n.text, q.Text) {
			continue
		}
		line := "- " + n.role
		if n.name != "" {
			line += " \"" + n.name + "\""
		}
		line += " [ref=" + n.ref + "]"
		if path := p.path(int32(i)); path != "" {
			line += " in: " + path
		}
		lines = append(lines, line)
		refs = append(refs, int32(i))
	}
	head := "find: no match"
	if len(refs) > 0 {
		head = "find: " + strconv.Itoa(len(refs)) + " matches"
	}
	return head + "\n" + strings.Join(lines, "\n"), refs
}

// path names the landmarks holding node i and the heading before it.
func (p *page) path(i int32) string {
	var parts []string
	depth := p.nodes[i].depth
	heading := ""
	for j := i - 1; j >= 0; j-- {
		n := &p.nodes[j]
		if n.role == "heading" && heading == "" && n.depth <= depth {
			heading = "heading \"" + n.name + "\""
		}
		if n.depth < depth {
			depth = n.depth
			if outlined[n.role] && n.role != "heading" {
				parts = append([]string{n.role}, parts...)
			}
		}
	}
	if heading != "" {
		parts = append(parts, heading)
	}
	return strings.Join(parts, " › ")
}

// continuationChars is room kept for the line that ends a part.
const continuationChars = 64

// read answers one observation of page p.
func (p *page) read(st state, tab string, opts drivers.ObserveOptions) (string, []int32, *drivers.Continuation, error) {
	maxChars := opts.MaxChars
	if opts.Find != nil {
		text, refs := p.find(opts.Find)
		return text, refs, nil, nil
	}
	from, to := int32(0), int32(len(p.nodes))
	if opts.Within != nil {
		i, ok := p.index(opts.Within.Ref)
		if !ok || opts.Within.Tab != tab {
			return "", nil, nil, errUnknownRef(opts.Within.Ref)
		}
		from, to = i, p.end(i)
	}
	if opts.After != nil {
		i, ok := p.index(opts.After.Ref)
		if !ok || opts.After.Tab != tab {
			return "", nil, nil, errUnknownRef(opts.After.Ref)
		}
		from = i + 1
	}
	if !opts.FullPage && opts.Within == nil {
		tree, shown := p.view(st, maxChars, opts.After == nil)
		return tree, shown, nil, nil
	}
	return p.part(st, from, to, maxChars, opts)
}

// view reads what is on screen and the outline of the rest, up to
// maxChars (0: the default). The page's default read (no conversation
// state, the default size, from the top) is made once and kept.
func (p *page) view(st state, maxChars int, top bool) (string, []int32) {
	first := len(st) == 0 && maxChars <= 0 && top
	if v := p.first.Load(); first && v != nil {
		return v.tree, v.shown
	}
	if maxChars <= 0 {
		maxChars = defaultViewMax
	}
	fold := int32(sort.Search(len(p.nodes), func(i int) bool { return p.nodes[i].line >= viewportLines }))
	b, shown, next := p.span(readBuffer(0, fold, maxChars), st, 0, fold, maxChars)
	b, outRefs := p.outline(b, next)
	tree, shown := text(b), append(shown, outRefs...)
	if first {
		p.first.Store(&view{tree: tree, shown: shown, refs: elementsOf(p, shown)})
	}
	return tree, shown
}

// part reads the nodes [from, to) up to maxChars, ending with how to go on
// when they do not fit.
func (p *page) part(st state, from, to int32, maxChars int, opts drivers.ObserveOptions) (string, []int32, *drivers.Continuation, error) {
	if maxChars <= 0 {
		maxChars = defaultTreeMax
	}
	b, shown, next := p.span(readBuffer(from, to, maxChars), st, from, to, maxChars)
	if next < to {
		// Leave room for the line that says how to go on.
		b, shown, next = p.span(b[:0], st, from, to, maxChars-continuationChars)
	}
	if next >= to || len(shown) == 0 {
		return text(b), shown, nil, nil
	}
	last := shown[len(shown)-1]
	c := &drivers.Continuation{FullPage: opts.Within == nil, After: p.nodes[last].ref, Left: int(to - next)}
	if opts.Within != nil {
		c.Within = opts.Within.Ref
	}
	b = strconv.AppendInt(append(b, "- (continues: "...), int64(c.Left), 10)
	b = append(append(append(b, " more after "...), c.After...), ")\n"...)
	return text(b), shown, c, nil
}
