package messages

import (
	"strings"
	"testing"
)

// TestUnsafeAtFindsWhatUnsafeRuneRefuses compares the byte-wise check with
// the rune-wise one it stands for, on ASCII, on text past ASCII, on invalid
// UTF-8 and on every refused character.
func TestUnsafeAtFindsWhatUnsafeRuneRefuses(t *testing.T) {
	texts := []string{"", "plain", "tab\there", "line\nbreak", "cr\rhere", "del\x7fhere", "esc\x1b[31m",
		"café", "naïve\u202eevil", "a\u2028b", "\xff\xfe bad utf8", "ok \u0085 nel", "x\u2066y", "emoji 😀 then \x01"}
	for r := rune(0); r < 0x3000; r++ {
		texts = append(texts, "ab"+string(r)+"cd")
	}
	for _, s := range texts {
		for _, lines := range []bool{false, true} {
			want := strings.IndexFunc(s, func(r rune) bool { return UnsafeRune(r, lines) })
			if got := unsafeAt(s, lines); got != want {
				t.Fatalf("unsafeAt(%q, %v) = %d, want %d", s, lines, got, want)
			}
		}
	}
}
