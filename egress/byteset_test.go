package egress

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// refAllIn is allIn as it was before the sets became tables: a search of
// set for each byte of s.
func refAllIn(s, set string) bool {
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune(set, rune(s[i])) {
			return false
		}
	}
	return true
}

// TestByteSetIsTheReference holds each set's table to the search it
// replaced, on random strings of bytes from the set, near it and beyond
// ASCII.
func TestByteSetIsTheReference(t *testing.T) {
	sets := []string{"0123456789", "0123456789abcdef", "0123456789ABCDEF", alnum, b64url, b64std, upperAZ}
	for _, r := range tokenRules {
		sets = append(sets, r.set)
	}
	r := rand.New(rand.NewPCG(7, 32))
	for _, set := range sets {
		in := setOf(set)
		for range 20000 {
			b := make([]byte, r.IntN(12))
			for i := range b {
				switch r.IntN(4) {
				case 0:
					b[i] = byte(r.IntN(256))
				default:
					b[i] = set[r.IntN(len(set))]
				}
			}
			if s := string(b); in.all(s) != refAllIn(s, set) {
				t.Fatalf("the table of %q says %v for %q, unlike the reference", set, in.all(s), s)
			}
		}
	}
}
