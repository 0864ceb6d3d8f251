package macos

// virtualKeys are the macOS virtual key codes (kVK_…) of the named keys
// press sends.
var virtualKeys = map[string]uint16{
	"Enter": 0x24, "Tab": 0x30, "Space": 0x31, "Backspace": 0x33, "Escape": 0x35,
	"Delete": 0x75, "Home": 0x73, "End": 0x77, "PageUp": 0x74, "PageDown": 0x79,
	"ArrowLeft": 0x7B, "ArrowRight": 0x7C, "ArrowDown": 0x7D, "ArrowUp": 0x7E,
}

// keyFor returns the virtual key of a named key, or false for a character,
// which is typed as a Unicode key event instead.
func keyFor(name string) (uint16, bool) {
	k, ok := virtualKeys[name]
	return k, ok
}

// runeKey is the virtual key a character of a fill value needs: a newline
// is Return and a tab is Tab; anything else goes as its Unicode string.
func runeKey(r rune) (uint16, bool) {
	switch r {
	case '\n':
		return virtualKeys["Enter"], true
	case '\t':
		return virtualKeys["Tab"], true
	}
	return 0, false
}

// utf16Of is r in UTF-16 code units.
func utf16Of(r rune) []uint16 {
	if r < 0x10000 {
		return []uint16{uint16(r)}
	}
	r -= 0x10000
	return []uint16{uint16(0xD800 + (r >> 10)), uint16(0xDC00 + (r & 0x3FF))}
}
