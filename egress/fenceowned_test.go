package egress

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// refFenceOwned is a reading's block as it was made before the owner's
// secrets were masked in FenceMasked: masked and fenced, then each owned
// value replaced in the whole block, fence lines included.
func refFenceOwned(kind, text string, owned []string) (string, []string) {
	masked, found := refMaskSecrets(text)
	block := refFence(kind, masked, countingTags())
	for _, v := range owned {
		if len(v) >= 4 {
			block = strings.ReplaceAll(block, v, "[masked: one of the owner's secrets]")
		}
	}
	return block, found
}

// ownedPieces make the texts and the owner's secrets of the tests below:
// words, secrets of the owner's kind, a vendor key, the marker itself and
// pieces of a fence.
var ownedPieces = []string{"hunter2!", "pass", "word", " ", "\n", "é", "\xff", ".", "page", "fence",
	"sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz012345", "[masked: one of the owner's secrets]", "owner", "s]", "abcd"}

func randomOwned(r *rand.Rand, n int) string {
	var b strings.Builder
	for range r.IntN(n) + 1 {
		b.WriteString(ownedPieces[r.IntN(len(ownedPieces))])
	}
	return b.String()
}

// TestFenceMaskedOwnedIsTheReference holds FenceMasked with the owner's
// secrets to the block as it was made before (mask, fence, then replace
// each secret in the block) on random texts and secrets, whenever the old
// way left the fence's own lines whole: the one case where it did not is
// the next test's.
func TestFenceMaskedOwnedIsTheReference(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 9))
	kinds := []string{"", "page", "dom"}
	compared := 0
	for range 30000 {
		kind, text := kinds[r.IntN(len(kinds))], randomOwned(r, 12)
		var owned []string
		for range r.IntN(4) {
			if i, j := r.IntN(len(text)+1), r.IntN(len(text)+1); r.IntN(2) == 0 && i < j {
				owned = append(owned, text[i:j])
			} else {
				owned = append(owned, randomOwned(r, 3))
			}
		}
		want, wantFound := refFenceOwned(kind, text, owned)
		plain, _ := refFenceOwned(kind, text, nil)
		opening, closing := plain[:strings.Index(plain, "\n")+1], plain[strings.LastIndex(plain, "\n"):]
		if !strings.HasPrefix(want, opening) || !strings.HasSuffix(want, closing) {
			continue // the old way masked the fence's own lines
		}
		compared++
		got, found := fenceMasked("", kind, text, owned, countingTags())
		if got != want || !slices.Equal(found, wantFound) {
			t.Fatalf("FenceMasked(%q, %q, %q)\n = %q, %q\nwant %q, %q", kind, text, owned, got, found, want, wantFound)
		}
	}
	if compared < 20000 {
		t.Fatalf("only %d of 30000 cases compared", compared)
	}
}

// TestOwnedSecretLeavesTheFenceWhole: an owner's secret that is also a
// word of the fence's lines is masked in the text and nowhere else.
func TestOwnedSecretLeavesTheFenceWhole(t *testing.T) {
	got, _ := fenceMasked("", "dom", "the page says fence", []string{"page", "fence", "000000000001", "kind"}, countingTags())
	want := "<untrusted-page-content kind=\"dom\" fence=\"000000000001\">\nthe " + OwnedMarker + " says " + OwnedMarker +
		"\n</untrusted-page-content fence=\"000000000001\">"
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

// TestFenceMaskedAfterIsHeadThenBlock: the head is written before the
// block FenceMasked makes, and nothing else changes.
func TestFenceMaskedAfterIsHeadThenBlock(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 10))
	for range 5000 {
		head, text := randomOwned(r, 3), randomOwned(r, 12)
		owned := []string{randomOwned(r, 2)}
		block, found := fenceMasked("", "page", text, owned, countingTags())
		got, gotFound := fenceMasked(head, "page", text, owned, countingTags())
		if got != head+block || !slices.Equal(gotFound, found) {
			t.Fatalf("after %q: %q, want %q", head, got, head+block)
		}
	}
}
