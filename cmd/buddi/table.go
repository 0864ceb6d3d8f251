package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
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

// row adds one row; each cell is printed as fmt.Print would.
func (t *table) row(cells ...any) {
	parts := make([]string, len(cells))
	for i, c := range cells {
		parts[i] = fmt.Sprint(c)
	}
	fmt.Fprintln(t.w, strings.Join(parts, "\t"))
}

func (t *table) flush() error { return t.w.Flush() }
