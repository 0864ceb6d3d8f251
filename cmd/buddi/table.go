package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/buddi-dev/buddi/messages"
)

// table writes aligned columns, as every listing command prints them.
type table struct{ w *tabwriter.Writer }

// newTable starts a table on out, with a header row unless header is empty.
func newTable(out io.Writer, header ...string) *table {
	t := &table{w: tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)}
	if len(header) > 0 {
		fmt.Fprintln(t.w, strings.Join(header, "\t"))
	}
	return t
}

// row adds one row; each cell is printed as fmt.Print would, escaped.
func (t *table) row(cells ...any) {
	parts := make([]string, len(cells))
	for i, c := range cells {
		parts[i] = escape(fmt.Sprint(c))
	}
	fmt.Fprintln(t.w, strings.Join(parts, "\t"))
}

// escape writes the characters that could rewrite the terminal (controls,
// escape sequences, line breaks, tabs, bidirectional controls) as visible
// escapes: a cell holds text from agents and pages.
func escape(s string) string {
	if !strings.ContainsFunc(s, unsafe) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case !unsafe(r):
			b.WriteRune(r)
		case r < 0x80:
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			fmt.Fprintf(&b, "\\u%04x", r)
		}
	}
	return b.String()
}

func unsafe(r rune) bool { return r == utf8.RuneError || messages.UnsafeRune(r, false) }

func (t *table) flush() error { return t.w.Flush() }
