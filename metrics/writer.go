package metrics

import (
	"bufio"
	"math"
	"strconv"
	"strings"
)

// writer writes the text exposition format.
type writer struct{ b *bufio.Writer }

func (w *writer) header(name, help, kind string) {
	w.b.WriteString("# HELP " + name + " " + escapeHelp(help) + "\n")
	w.b.WriteString("# TYPE " + name + " " + kind + "\n")
}

// sample writes one line: name, the labels with their values, and an extra
// label (le of a bucket) when extraName is set.
func (w *writer) sample(name string, labels, vals []string, extraName, extraVal string, v float64) {
	w.b.WriteString(name)
	n := 0
	for i, l := range labels {
		val := ""
		if i < len(vals) {
			val = vals[i]
		}
		w.label(n, l, val)
		n++
	}
	if extraName != "" {
		w.label(n, extraName, extraVal)
		n++
	}
	if n > 0 {
		w.b.WriteByte('}')
	}
	w.b.WriteByte(' ')
	w.b.WriteString(formatValue(v))
	w.b.WriteByte('\n')
}

func (w *writer) label(i int, name, val string) {
	if i == 0 {
		w.b.WriteByte('{')
	} else {
		w.b.WriteByte(',')
	}
	w.b.WriteString(name + `="` + escapeLabel(val) + `"`)
}

func formatValue(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

var (
	labelEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)
	helpEscaper  = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
)

func escapeLabel(s string) string { return labelEscaper.Replace(s) }
func escapeHelp(s string) string  { return helpEscaper.Replace(s) }
