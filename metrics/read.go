package metrics

import (
	"bytes"
	"strconv"
)

// Value reads the sample of an unlabelled family name from a page in the
// text exposition format (what GET /metrics answers), the first when it
// comes twice; false when the page has no such sample or its value is not
// a number.
func Value(page []byte, name string) (float64, bool) {
	for line := range bytes.SplitSeq(page, []byte("\n")) {
		rest, ok := bytes.CutPrefix(line, []byte(name))
		if !ok || len(rest) == 0 || rest[0] != ' ' {
			continue
		}
		f := bytes.Fields(rest) // the value, then perhaps a timestamp
		if len(f) == 0 {
			return 0, false
		}
		v, err := strconv.ParseFloat(string(f[0]), 64)
		return v, err == nil
	}
	return 0, false
}
