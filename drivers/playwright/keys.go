package playwright

import (
	"unicode"
	"unicode/utf8"
)

// namedKeys are the keys press accepts by name.
var namedKeys = map[string]bool{
	"Enter": true, "Tab": true, "Escape": true, "Backspace": true, "Delete": true,
	"ArrowUp": true, "ArrowDown": true, "ArrowLeft": true, "ArrowRight": true,
	"Home": true, "End": true, "PageUp": true, "PageDown": true, "Space": true,
}

// keyAllowed reports whether press may send key: a named key above, or one
// printable character. Chords (Control+a) are not keys here.
func keyAllowed(key string) bool {
	if namedKeys[key] {
		return true
	}
	r, n := utf8.DecodeRuneInString(key)
	return n > 0 && n == len(key) && r != utf8.RuneError && unicode.IsPrint(r)
}

// typesText reports whether key puts text into a field.
func typesText(key string) bool {
	return key == "Space" || (!namedKeys[key] && keyAllowed(key))
}
