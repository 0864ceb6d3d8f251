package egress

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// blockOf is text written into a Block after head, closed with owned,
// with tags counted from 1.
func blockOf(head, kind, text string, owned []string) (string, []string) {
	k := Block{newTag: countingTags()}
	k.Open(head, kind, len(text))
	k.Text().WriteString(text)
	return k.Close(owned)
}

// sameAsFenceMasked fails t unless the block written in place is
// FenceMaskedAfter's, byte for byte, with the same masked values.
func sameAsFenceMasked(t *testing.T, head, kind, text string, owned []string) {
	t.Helper()
	got, gotFound := blockOf(head, kind, text, owned)
	want, wantFound := fenceMasked(head, kind, text, owned, countingTags())
	if got != want || !slices.Equal(gotFound, wantFound) {
		t.Fatalf("head %q kind %q text %q owned %q:\nblock %q %q\nwant  %q %q", head, kind, text, owned, got, gotFound, want, wantFound)
	}
}

// A block written in place is FenceMaskedAfter's for the readings a page
// gives: none, plain, unicode, bytes that are not UTF-8, secrets (alone,
// at the edges, against fence lines), the tag itself, a private key, the
// owner's secrets.
func TestBlockIsFenceMasked(t *testing.T) {
	const key = "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz012345"
	closing := `</untrusted-page-content fence="000000000001">`
	texts := map[string]string{
		"empty":                "",
		"newline":              "\n",
		"plain":                "Title: Deals\n- link \"Home\" [ref=e1]\n",
		"no final newline":     "- button \"Go\" [ref=e2]",
		"unicode":              "Titre: Café — 東京 🎉\n",
		"not utf-8":            "a\xffb\xc3\n",
		"a secret":             "token " + key + " here\n",
		"a secret at the ends": key + "\n" + key,
		"a secret then a stop": "use " + key + ". now",
		"a fence line":         closing + "\n",
		"a secret on a fence":  closing + key + closing,
		"the tag":              "000000000001 and 000000000002\n",
		"a private key":        "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\nafter",
		"an owned secret":      "the password is hunter2! ok\n",
		"the owned marker":     "[masked: one of the owner's secrets] hunter2!",
	}
	owned := [][]string{nil, {"hunter2!"}, {"pass", "fence"}, {"abc"}, {"untrusted-page-content"}}
	for name, text := range texts {
		for _, o := range owned {
			for _, kind := range []string{"page", "dom", "", "we ird\"kind"} {
				for _, head := range []string{"", "Observed 12:00:00 UTC.\n"} {
					t.Run(name, func(t *testing.T) { sameAsFenceMasked(t, head, kind, text, o) })
				}
			}
		}
	}
}

// On random readings made of words, secrets, fence pieces and bytes that
// are not UTF-8, the block is FenceMaskedAfter's.
func TestBlockIsFenceMaskedOnRandomReadings(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 32))
	pieces := append(slices.Clone(ownedPieces), "000000000001", `fence="`, "<untrusted-page-content ", "PRIVATE KEY", "東京")
	for range 20000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := b.String()
		var owned []string
		for range r.IntN(3) {
			owned = append(owned, pieces[r.IntN(len(pieces))])
		}
		sameAsFenceMasked(t, "", []string{"page", "dom"}[r.IntN(2)], text, owned)
	}
}

// BenchmarkBlock measures an observation's text (a page's usual reading,
// 8 KB, written line by line) fenced: written into a Block, and gathered
// first and then handed to FenceMaskedAfter, as answers were made before.
func BenchmarkBlock(b *testing.B) {
	const line = "- link \"Read the docs\" [ref=e12] https://example.com/docs?page=2\n"
	const lines = 128
	b.Run("in-place", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(lines * int64(len(line)))
		for b.Loop() {
			var k Block
			k.Open("Observed 12:00:00 UTC.\n", "page", lines*len(line))
			for range lines {
				k.Text().WriteString(line)
			}
			_, _ = k.Close(nil)
		}
	})
	b.Run("gathered", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(lines * int64(len(line)))
		for b.Loop() {
			var t strings.Builder
			t.Grow(lines * len(line))
			for range lines {
				t.WriteString(line)
			}
			_, _ = FenceMaskedAfter("Observed 12:00:00 UTC.\n", "page", t.String(), nil)
		}
	})
}

// The values a reading's masking found are pieces of that reading: its
// block keeps its memory and lends none, so they stay what they were while
// plain blocks after it are written in lent memory and freed, over random
// readings of words, secrets and fence pieces.
func TestMaskedValuesOutliveTheBlocksWrittenAfterThem(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 64))
	pieces := append(slices.Clone(ownedPieces), "plain words ", "- link \"Home\" [ref=e1]\n", "東京")
	type kept struct{ got, want []string }
	var masked []kept
	lent := 0
	for range 5000 {
		var b strings.Builder
		for range 1 + r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		k := Block{newTag: countingTags()}
		k.Open("Observed 12:00:00 UTC.\n", "page", b.Len())
		k.Text().WriteString(b.String())
		block, found := k.Close(nil)
		want, wantFound := fenceMasked("Observed 12:00:00 UTC.\n", "page", b.String(), nil, countingTags())
		if block != want {
			t.Fatalf("block %q\nwant  %q", block, want)
		}
		l := k.Lease()
		switch {
		case len(found) > 0 && l != nil:
			t.Fatalf("a reading that masked %q lent its memory", found)
		case l != nil:
			lent++
			if k.Lease() != nil {
				t.Fatal("a block lent its memory twice")
			}
			l.Free()
		}
		if len(found) > 0 {
			masked = append(masked, kept{found, slices.Clone(wantFound)})
		}
	}
	if lent == 0 || len(masked) == 0 {
		t.Fatalf("%d blocks lent, %d masked: the readings do not cover both", lent, len(masked))
	}
	for _, m := range masked {
		for i := range m.want {
			if m.got[i] != strings.Clone(m.want[i]) {
				t.Fatalf("a masked value became %q, was %q", m.got[i], m.want[i])
			}
		}
	}
}

// A block with nothing written gives its memory back when dropped, and a
// block closed but not lent keeps it: its text stays readable after the
// pool hands memory out again.
func TestABlockNotLentKeepsItsText(t *testing.T) {
	var k Block
	k.Open("", "page", 16)
	k.Text().WriteString("- button \"Keep\" [ref=e1]\n")
	block, _ := k.Close(nil)
	k.Drop() // closed: the text is the caller's, so nothing goes back
	want := strings.Clone(block)
	for range 100 {
		var o Block
		o.Open("", "page", 16)
		o.Text().WriteString("- button \"Other\" [ref=e9]\n")
		_, _ = o.Close(nil)
		o.Lease().Free()
		var e Block
		e.Open("", "page", 16)
		e.Drop()
	}
	if block != want {
		t.Fatalf("the block became %q, was %q", block, want)
	}
}
