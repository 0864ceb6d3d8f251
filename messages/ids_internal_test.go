package messages

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestValidConversationIsThePattern holds the check of conversation ids to
// the pattern it replaced, on random strings near and beyond its rules.
func TestValidConversationIsThePattern(t *testing.T) {
	pattern := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)
	pieces := []string{"a", "Z", "0", "9", ".", "_", "-", "/", " ", "\n", "é", "\xff", "\x00", "aaaaaaaaaaaaaaaa", "~", "A.b-c_d"}
	r := rand.New(rand.NewPCG(64, 1))
	for range 200000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		if c := b.String(); validConversation(c) != pattern.MatchString(c) {
			t.Fatalf("validConversation(%q) = %v, unlike the pattern", c, validConversation(c))
		}
	}
	for n := range 70 { // the length bound, exactly
		c := strings.Repeat("a", n)
		if validConversation(c) != pattern.MatchString(c) {
			t.Fatalf("validConversation of %d letters = %v, unlike the pattern", n, validConversation(c))
		}
	}
}
