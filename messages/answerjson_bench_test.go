package messages

import (
	"strings"
	"testing"
)

// BenchmarkAppendString writes an observation's text as a JSON string, as
// every observation answer does: mostly plain ASCII, with quotes, newlines
// and a few accented letters.
func BenchmarkAppendString(b *testing.B) {
	line := `- link "Read the installation guide for Debian" [ref=e12]` + "\n" +
		`  - textbox "Search the docs" [ref=e13] value="héllo wörld"` + "\n"
	s := strings.Repeat(line, 4000/len(line))
	buf := make([]byte, 0, 2*len(s))
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		buf = appendString(buf[:0], s)
	}
}
