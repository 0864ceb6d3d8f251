package secret

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
)

// HashBytes gives the hex SHA-256 of every token, whether its slot holds
// its own sum, another token's or none; and a token sent again costs no
// allocation.
func TestHashBytesIsTheTokensHashWhateverItsSlotHeld(t *testing.T) {
	// 2,000 tokens fill all 256 slots many times over, so most calls
	// below meet a slot another token took.
	tokens := make([][]byte, 2000)
	for i := range tokens {
		tokens[i] = fmt.Appendf(nil, "bud_agent_%04d", i)
	}
	want := func(tok []byte) string {
		sum := sha256.Sum256(tok)
		return hex.EncodeToString(sum[:])
	}
	for round := range 3 {
		for _, tok := range tokens {
			if got := HashBytes(tok); got != want(tok) {
				t.Fatalf("round %d: HashBytes(%q) = %s, want %s", round, tok, got, want(tok))
			}
			if got := HashBytes(tok); got != Hash(string(tok)) {
				t.Fatalf("round %d: HashBytes(%q) = %s, Hash says %s", round, tok, got, Hash(string(tok)))
			}
		}
	}
	tok := []byte("bud_agent_again")
	_ = HashBytes(tok)
	if n := testing.AllocsPerRun(100, func() { _ = HashBytes(tok) }); n != 0 {
		t.Errorf("a token sent again made %v allocations, want 0", n)
	}
}
