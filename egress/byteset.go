package egress

// byteSet is a set of bytes as a table: a byte's membership is one load,
// where a search of the set's string would be one scan per byte.
type byteSet [256]bool

// setOf is the set of chars' bytes.
func setOf(chars string) *byteSet {
	var t byteSet
	for i := 0; i < len(chars); i++ {
		t[chars[i]] = true
	}
	return &t
}

// all reports whether every byte of s is in t.
func (t *byteSet) all(s string) bool {
	for i := 0; i < len(s); i++ {
		if !t[s[i]] {
			return false
		}
	}
	return true
}
