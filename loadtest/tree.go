package loadtest

import (
	"bytes"
	"strconv"
	"strings"
)

// page is what an agent needs from one observation: the refs it may act on,
// by role, read from the aria-snapshot text ("- role "name" [ref=eN]"). It
// keeps its own copy of the text, in room it reuses, for the names it
// may type (read out only when one is picked).
type page struct {
	id      string // observation id
	url     string
	text    []byte
	links   []string
	boxes   []string // textboxes and searchboxes
	checks  []string
	buttons []string
	combos  []combo
	any     []string // every ref, for hover
	regions []string // landmarks and headings, to observe within
	names   []span   // link names, to find
}

type combo struct {
	ref     string
	options []span
}

// span is a quoted name in the page's text, from after its opening quote
// to the end of its line's head.
type span struct{ start, end int32 }

// name is the name at s, its escapes undone.
func (p *page) name(s span) string { return unquote(string(p.text[s.start:s.end])) }

// parsePage reads refs from an observation's text. Lines look like
// `  - link "Deals" [ref=e8] [cursor=pointer]:`; an option belongs to the
// combobox above it.
func parsePage(id, url, text string) *page { return new(page).parse(id, url, []byte(text)) }

// parse is parsePage into p, whose lists and text keep their room: an
// agent reads a page after most of its acts, and growing new lists, and a
// new string of the text, for each was the harness's largest allocation
// under load.
func (p *page) parse(id, url string, text []byte) *page {
	*p = page{id: id, url: url, text: append(p.text[:0], text...), links: p.links[:0], boxes: p.boxes[:0], checks: p.checks[:0],
		buttons: p.buttons[:0], combos: p.combos[:0], any: p.any[:0], regions: p.regions[:0], names: p.names[:0]}
	for at := 0; at < len(p.text); {
		end := len(p.text)
		if i := bytes.IndexByte(p.text[at:], '\n'); i >= 0 {
			end = at + i
		}
		role, name, ref := parseLine(p.text, at, end)
		at = end + 1
		if ref == "" {
			continue
		}
		p.any = append(p.any, ref)
		switch string(role) {
		case "link":
			p.links = append(p.links, ref)
			if name.end > name.start {
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
			p.combos = append(p.combos, combo{ref: ref, options: p.options(len(p.combos))})
		case "option":
			if n := len(p.combos); n > 0 && name.end > name.start {
				p.combos[n-1].options = append(p.combos[n-1].options, name)
			}
		}
	}
	return p
}

// options is the room of the ith combobox's options the last page read
// into p had, emptied.
func (p *page) options(i int) []span {
	if i < cap(p.combos) {
		if c := p.combos[:i+1][i]; c.options != nil {
			return c.options[:0]
		}
	}
	return nil
}

// parseLine returns the role, the span of the quoted name (empty when
// there is none) and the ref of the tree line text[at:end].
func parseLine(text []byte, at, end int) (role []byte, name span, ref string) {
	s := text[at:end]
	for len(s) > 0 && s[0] == ' ' {
		s = s[1:]
	}
	s, ok := bytes.CutPrefix(s, []byte("- "))
	if !ok {
		return nil, span{}, ""
	}
	i := bytes.Index(s, []byte("[ref="))
	if i < 0 {
		return nil, span{}, ""
	}
	j := bytes.IndexByte(s[i:], ']')
	if j < 0 {
		return nil, span{}, ""
	}
	ref = refString(s[i+len("[ref=") : i+j])
	head := s[:i]
	headAt := end - len(s) // where head starts in text
	if k := bytes.IndexByte(head, ' '); k >= 0 {
		role = head[:k]
		if q := bytes.IndexByte(head, '"'); q >= 0 && q+1 < len(head) && head[q+1] != '"' {
			name = span{int32(headAt + q + 1), int32(headAt + len(head))}
		}
	} else {
		role = head
	}
	return role, name, ref
}

// refs are the strings of the refs e0 to e4095, made once: an agent's
// lists hold these instead of a string per ref per page read.
var refs = func() (t [4096]string) {
	for n := range t {
		t[n] = "e" + strconv.Itoa(n)
	}
	return t
}()

// refString is ref b as a string, one of refs when it is one.
func refString(b []byte) string {
	if len(b) < 2 || len(b) > 5 || b[0] != 'e' || (b[1] == '0' && len(b) > 2) {
		return string(b)
	}
	n := 0
	for _, c := range b[1:] {
		if c < '0' || c > '9' {
			return string(b)
		}
		n = n*10 + int(c-'0')
	}
	if n >= len(refs) {
		return string(b)
	}
	return refs[n]
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
