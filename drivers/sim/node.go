package sim

import (
	"strconv"
	"strings"
)

// node is one element of a page's accessibility tree. Nodes are immutable
// once their page is built; per-conversation state (field values) lives in
// the tab and is applied when rendering.
type node struct {
	role, name string
	ref        string // "e<index+1>"
	fp         string // fingerprint: url#ref#role#name
	href       string // links: the path shown as a /url child line
	text       string // inline text after the colon (paragraphs)
	value      string // options: the value select accepts beside the label
	depth      int8
	level      int8  // headings: [level=N]
	pointer    bool  // [cursor=pointer]
	parent     bool  // has child lines: the line ends with a colon
	form       int32 // index of the enclosing form node, or -1
	combo      int32 // options: index of their combobox, or -1
	line       int32 // line of this node in the rendered tree
}

func (n *node) editable() bool { return n.role == "textbox" || n.role == "searchbox" }

// state is what a conversation changed on a page: node index → value.
// Checkboxes hold "on" when checked; comboboxes the selected option's label.
type state map[int32]string

// appendLine renders node i of p as aria snapshot lines.
func appendLine(b []byte, p *page, i int32, st state) []byte {
	n := &p.nodes[i]
	b = appendIndent(b, n.depth)
	b = append(b, "- "...)
	b = append(b, n.role...)
	if n.name != "" {
		b = append(b, " \""...)
		b = appendEscaped(b, n.name)
		b = append(b, '"')
	}
	if n.role == "checkbox" && st[i] == "on" {
		b = append(b, " [checked]"...)
	}
	if n.role == "option" && p.selected(n.combo, st) == i {
		b = append(b, " [selected]"...)
	}
	if n.level > 0 {
		b = append(b, " [level="...)
		b = strconv.AppendInt(b, int64(n.level), 10)
		b = append(b, ']')
	}
	b = append(b, " [ref="...)
	b = append(b, n.ref...)
	b = append(b, ']')
	if n.pointer {
		b = append(b, " [cursor=pointer]"...)
	}
	switch v := st[i]; {
	case n.editable() && v != "":
		b = append(b, ": "...)
		b = appendOneLine(b, v)
	case n.text != "":
		b = append(b, ": "...)
		b = append(b, n.text...)
	case n.parent || n.href != "":
		b = append(b, ':')
	}
	b = append(b, '\n')
	if n.href != "" {
		b = appendIndent(b, n.depth+1)
		b = append(b, "- /url: "...)
		b = append(b, n.href...)
		b = append(b, '\n')
	}
	return b
}

func appendIndent(b []byte, depth int8) []byte {
	for range depth {
		b = append(b, "  "...)
	}
	return b
}

func appendEscaped(b []byte, s string) []byte {
	if !strings.ContainsAny(s, "\"\\") {
		return append(b, s...)
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			b = append(b, '\\')
		}
		b = append(b, s[i])
	}
	return b
}

// appendOneLine appends s with line breaks turned into spaces, so a typed
// value never adds a line to the tree.
func appendOneLine(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\n' || c == '\r' {
			c = ' '
		}
		b = append(b, c)
	}
	return b
}
