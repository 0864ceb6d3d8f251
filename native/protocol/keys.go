package protocol

import (
	"unicode"
	"unicode/utf8"
)

// NamedKeys are the keys press accepts by name, beside one printable
// character. There are no chords and no function keys: no arbitrary hotkey
// reaches an app.
var NamedKeys = []string{"Enter", "Tab", "Escape", "Backspace", "Delete",
	"ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown", "Space"}

// KeyAllowed reports whether press may send key: a named key or one printable
// character.
func KeyAllowed(key string) bool {
	for _, k := range NamedKeys {
		if key == k {
			return true
		}
	}
	r, n := utf8.DecodeRuneInString(key)
	return n > 0 && n == len(key) && r != utf8.RuneError && unicode.IsPrint(r)
}

// CheckFillValue refuses a value that fill cannot type: too long, not UTF-8,
// or with control characters other than a newline or a tab.
func CheckFillValue(v string) *Error {
	if !utf8.ValidString(v) {
		return Errorf(CodeBadRequest, "The value is not valid UTF-8 text; send plain text.")
	}
	if n := utf8.RuneCountInString(v); n > MaxFillRunes {
		return Errorf(CodeBadRequest, "The value has %d characters, more than the %d a fill may type; fill a shorter value.", n, MaxFillRunes)
	}
	for _, r := range v {
		if r != '\n' && r != '\t' && (unicode.IsControl(r) || bidiControl(r) || !unicode.IsPrint(r) && !unicode.IsSpace(r)) {
			return Errorf(CodeKeyNotAllowed, "The value holds the control character %U, which fill does not type; remove it and fill again.", r)
		}
	}
	return nil
}

func keyError(key string) *Error {
	return Errorf(CodeKeyNotAllowed, "%q is not a key press sends; use one character, or Enter, Tab, Escape, Backspace, Delete, an arrow, Home, End, PageUp, PageDown or Space.", key)
}
