package sim

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// builder assembles one page template.
type builder struct {
	s    *site
	p    *page
	rng  *rand.Rand
	form int32 // index of the form being built, or -1
}

// build generates template slot i. The same Seed, Pages and Elements always
// give the same page.
func (s *site) build(slot int) *page {
	b := &builder{s: s, p: &page{}, rng: rand.New(rand.NewPCG(uint64(s.seed), uint64(slot))), form: -1}
	switch {
	case slot < s.pages:
		b.linkPage(slot)
	case slot < 2*s.pages:
		b.formPage(slot - s.pages)
	default:
		b.donePage()
	}
	b.p.site = s
	return b.finish()
}

func (b *builder) add(depth int8, role, name string) *node {
	b.p.nodes = append(b.p.nodes, node{role: role, name: name, depth: depth, form: b.form, combo: -1})
	return &b.p.nodes[len(b.p.nodes)-1]
}

func (b *builder) link(depth int8, name, href string) {
	n := b.add(depth, "link", name)
	n.href, n.pointer = href, true
}

func (b *builder) banner() {
	b.add(0, "banner", "")
	b.link(1, "Home", "/p/0")
	b.add(1, "navigation", "Main")
	b.add(2, "list", "")
	for _, l := range [...]struct{ name, href string }{
		{"Catalog", b.pagePath(1)}, {"Deals", b.pagePath(2)},
		{"Order form", "/form/" + strconv.Itoa(b.rng.IntN(b.s.pages))}, {"Help", b.pagePath(3)},
	} {
		b.add(3, "listitem", "")
		b.link(4, l.name, l.href)
	}
}

func (b *builder) footer() {
	b.add(0, "contentinfo", "")
	b.link(1, "Help", b.pagePath(3))
	b.add(1, "paragraph", "").text = "(c) sim.localhost, a simulated site"
}

func (b *builder) pagePath(n int) string { return "/p/" + strconv.Itoa(n%b.s.pages) }

// related adds a list of k links to random pages.
func (b *builder) related(k int) {
	b.add(1, "heading", "Related").level = 2
	b.add(1, "list", "")
	for i := range k {
		name := fmt.Sprintf("%s %s %s", pick(b.rng, adjectives), pick(b.rng, nouns), pick(b.rng, topics))
		href := b.pagePath(b.rng.IntN(b.s.pages))
		if i%5 == 4 {
			href = "/form/" + strconv.Itoa(b.rng.IntN(b.s.pages))
		}
		b.add(2, "listitem", "")
		b.link(3, name, href)
	}
}

func (b *builder) table() {
	b.add(1, "table", "Prices")
	b.add(2, "rowgroup", "")
	b.add(3, "row", "Item Price")
	b.add(4, "columnheader", "Item")
	b.add(4, "columnheader", "Price")
	b.add(2, "rowgroup", "")
	for range 5 {
		item := pick(b.rng, adjectives) + " " + pick(b.rng, nouns)
		price := fmt.Sprintf("$%d.%02d", 5+b.rng.IntN(200), b.rng.IntN(100))
		b.add(3, "row", item+" "+price)
		b.add(4, "cell", item)
		b.add(4, "cell", price)
	}
}

// startForm opens a form at depth 1; fields added until endForm belong to it.
func (b *builder) startForm(name string) {
	b.add(1, "form", name)
	b.form = int32(len(b.p.nodes) - 1)
}

func (b *builder) endForm() { b.form = -1 }

func (b *builder) linkPage(n int) {
	b.p.url, b.p.title = b.s.origin+"/p/"+strconv.Itoa(n), fmt.Sprintf("Page %d - %s", n, strings.TrimPrefix(b.s.origin, "https://"))
	if n%5 == 3 {
		b.p.consoleErr = consoleErrors[n%len(consoleErrors)] + " at " + b.p.url
	}
	b.banner()
	b.add(0, "main", "")
	b.add(1, "heading", fmt.Sprintf("Page %d", n)).level = 1
	b.add(1, "paragraph", "").text = pick(b.rng, blurbs)
	b.table()
	b.related(b.s.elements - 8) // banner 5, newsletter 2, footer 1
	b.startForm("Newsletter")
	b.add(2, "textbox", "Email")
	b.add(2, "button", "Send").pointer = true
	b.endForm()
	b.footer()
}

func (b *builder) formPage(n int) {
	b.p.url, b.p.title = b.s.origin+"/form/"+strconv.Itoa(n), fmt.Sprintf("Order form %d - %s", n, strings.TrimPrefix(b.s.origin, "https://"))
	b.banner()
	b.add(0, "main", "")
	b.add(1, "heading", fmt.Sprintf("Order form %d", n)).level = 1
	b.add(1, "paragraph", "").text = "Fill in the form and press Send."
	b.startForm("Order")
	b.add(2, "textbox", "Name")
	b.add(2, "textbox", "Email")
	b.add(2, "combobox", "Country")
	combo := int32(len(b.p.nodes) - 1)
	first := b.rng.IntN(len(countries))
	for i := range 4 {
		c := countries[(first+i)%len(countries)]
		o := b.add(3, "option", c)
		o.combo, o.value = combo, strings.ToLower(c[:2])
	}
	b.add(2, "checkbox", "I accept the terms")
	b.add(2, "button", "Send").pointer = true
	b.endForm()
	b.related(b.s.elements - 11) // banner 5, form 5, footer 1
	b.footer()
}

func (b *builder) donePage() {
	b.p.url, b.p.title = b.s.origin+"/done", "Thank you - "+strings.TrimPrefix(b.s.origin, "https://")
	b.banner()
	b.add(0, "main", "")
	b.add(1, "heading", "Thank you").level = 1
	b.add(1, "paragraph", "").text = "Your form was received."
	b.link(1, "Back to the start", "/p/0")
	b.footer()
}

// finish numbers the nodes and lines, and renders the tree and text once.
func (b *builder) finish() *page {
	p := b.p
	p.nodes = p.nodes[:len(p.nodes):len(p.nodes)]
	var line int32
	for i := range p.nodes {
		n := &p.nodes[i]
		n.ref = "e" + strconv.Itoa(i+1)
		n.fp = p.url + "#" + n.ref + "#" + n.role + "#" + n.name
		n.line = line
		n.parent = i+1 < len(p.nodes) && p.nodes[i+1].depth > n.depth
		line++
		if n.href != "" {
			line++
		}
	}
	p.lines = line
	var tree []byte
	for i := range p.nodes {
		tree = appendLine(tree, p, int32(i), nil)
	}
	p.tree = string(tree)
	p.text = visibleText(p.nodes)
	return p
}

// visibleText is roughly what innerText of the page would give.
func visibleText(nodes []node) string {
	var b strings.Builder
	for i := range nodes {
		n := &nodes[i]
		s := n.text
		switch n.role {
		case "table", "rowgroup", "row", "form", "navigation", "combobox", "list", "listitem":
		default:
			if s == "" {
				s = n.name
			}
		}
		if s != "" {
			b.WriteString(s)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func pick(r *rand.Rand, words []string) string { return words[r.IntN(len(words))] }
