package protocol

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Clean makes s fit for one line of an observation: invalid UTF-8 becomes
// U+FFFD, control and bidirectional-override characters and runs of white
// space become one space, the ends are trimmed, and at most maxRunes runes
// are kept (the last one an ellipsis when it was cut).
func Clean(s string, maxRunes int) string {
	var b strings.Builder
	space, n := false, 0
	for _, r := range s {
		if n >= maxRunes {
			break
		}
		if unicode.IsSpace(r) || unicode.IsControl(r) || bidiControl(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			n++
			space = false
			if n >= maxRunes {
				break
			}
		}
		b.WriteRune(r)
		n++
	}
	out := b.String()
	if n >= maxRunes && utf8.RuneCountInString(strings.TrimRightFunc(s, unicode.IsSpace)) > maxRunes {
		rs := []rune(out)
		out = string(rs[:len(rs)-1]) + "…"
	}
	return out
}

// clean reports whether s is what Clean leaves: valid UTF-8, no control or
// override characters, no white space but single spaces, within maxRunes.
func clean(s string, maxRunes int) bool {
	if !utf8.ValidString(s) || utf8.RuneCountInString(s) > maxRunes {
		return false
	}
	for _, r := range s {
		if (unicode.IsSpace(r) && r != ' ') || unicode.IsControl(r) || bidiControl(r) {
			return false
		}
	}
	return true
}

func bidiControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) || r == 0x200E || r == 0x200F || r == 0x061C
}
