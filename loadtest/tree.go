package loadtest

import "strings"

// page is what an agent needs from one observation: the refs it may act on,
// by role, read from the aria-snapshot text ("- role "name" [ref=eN]").
type page struct {
	id      string // observation id
	url     string
	links   []string
	boxes   []string // textboxes and searchboxes
	checks  []string
	buttons []string
	combos  []combo
	any     []string // every ref, for hover
	regions []string // landmarks and headings, to observe within
	names   []string // link names, to find
}

type combo struct {
	ref     string
	options []string
}

// parsePage reads refs from an observation's text. Lines look like
// `  - link "Deals" [ref=e8] [cursor=pointer]:`; an option belongs to the
// combobox above it.
func parsePage(id, url, text string) *page { return new(page).parse(id, url, text) }

// parse is parsePage into p, whose lists keep their room: an agent reads a
// page after most of its acts, and growing new lists for each was the
// harness's largest allocation under load.
func (p *page) parse(id, url, text string) *page {
	*p = page{id: id, url: url, links: p.links[:0], boxes: p.boxes[:0], checks: p.checks[:0], buttons: p.buttons[:0],
		combos: p.combos[:0], any: p.any[:0], regions: p.regions[:0], names: p.names[:0]}
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		role, name, ref := parseLine(line)
		if ref == "" {
			continue
		}
		p.any = append(p.any, ref)
		switch role {
		case "link":
			p.links = append(p.links, ref)
			if name != "" {
				p.names = append(p.names, name)
			}
		case "heading", "navigation", "main", "contentinfo", "banner", "form":
			p.regions = append(p.regions, ref)
		case "textbox", "searchbox":
			p.boxes = append(p.boxes, ref)
		case "checkbox":
			p.checks = append(p.checks, ref)
		case "button":
			p.buttons = append(p.buttons, ref)
		case "combobox":
			p.combos = append(p.combos, combo{ref: ref})
		case "option":
			if n := len(p.combos); n > 0 && name != "" {
				p.combos[n-1].options = append(p.combos[n-1].options, name)
			}
		}
	}
	return p
}

// parseLine returns a tree line's role, quoted name and ref.
func parseLine(line string) (role, name, ref string) {
	s := strings.TrimLeft(line, " ")
	s, ok := strings.CutPrefix(s, "- ")
	if !ok {
		return "", "", ""
	}
	i := strings.Index(s, "[ref=")
	if i < 0 {
		return "", "", ""
	}
	j := strings.IndexByte(s[i:], ']')
	if j < 0 {
		return "", "", ""
	}
	ref = s[i+len("[ref=") : i+j]
	head := s[:i]
	if k := strings.IndexByte(head, ' '); k >= 0 {
		role = head[:k]
		if q := strings.IndexByte(head, '"'); q >= 0 {
			name = unquote(head[q+1:])
		}
	} else {
		role = head
	}
	return role, name, ref
}

// unquote reads a name up to its closing quote, undoing \" and \\.
func unquote(s string) string {
	if !strings.ContainsRune(s, '\\') {
		if i := strings.IndexByte(s, '"'); i >= 0 {
			return s[:i]
		}
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		case c == '"':
			return b.String()
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
