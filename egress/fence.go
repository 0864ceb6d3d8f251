package egress

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"unicode/utf8"
)

// Fence wraps text read out of a page in one block marked as untrusted page
// content, so that instructions written into a page reach the model as data.
// The block's closing line carries a fresh random tag that the page cannot
// know, and Fence checks the text does not contain it; text that imitates a
// closing line ends nothing. kind names what was read ("dom", "text"); the
// usual kind, "page" (an observation), is left unsaid, and anything but
// letters, digits, '-' and '_' is dropped from it. The opening and closing
// lines are all the block adds: an answer pays for them on every call.
// This is a mitigation, not a boundary.
func Fence(kind, text string) string {
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	return fence("", kind, text, fenceTag)
}

// FenceMasked is Fence of the text MaskSecrets leaves, with the values it
// masked, in one pass over text: the block a page's reading reaches an
// agent in. Text without secrets and in valid UTF-8, a page's usual
// reading, is copied once, into the block. owned are the owner's own
// secrets: each one of MinOwned bytes or more is then replaced by
// OwnedMarker wherever it is in the text, one after the other, before the
// block is made, so that the fence's own lines are never masked.
func FenceMasked(kind, text string, owned []string) (string, []string) {
	return fenceMasked("", kind, text, owned, fenceTag)
}

// FenceMaskedAfter is head followed by FenceMasked's block, made as one
// string: an answer's own line before the block costs no second copy of
// the block.
func FenceMaskedAfter(head, kind, text string, owned []string) (string, []string) {
	return fenceMasked(head, kind, text, owned, fenceTag)
}

// OwnedMarker replaces an owner's own secret in what an agent reads.
const OwnedMarker = "[masked: one of the owner's secrets]"

// MinOwned is the shortest owner's secret masked in page text: shorter
// ones would mask ordinary words.
const MinOwned = 4

// fenceMasked is FenceMaskedAfter with the source of tags given.
func fenceMasked(head, kind, text string, owned []string, tag func() string) (string, []string) {
	text, found := maskKeys(text)
	s := scanSecrets(text)
	found = s.values(text, found)
	return fence(head, kind, maskOwned(s.apply(text, true), owned), tag), found
}

// maskOwned replaces each of owned in text in turn. A value text does not
// hold costs one search and no copy.
func maskOwned(text string, owned []string) string {
	for _, v := range owned {
		if len(v) >= MinOwned {
			text = strings.ReplaceAll(text, v, OwnedMarker)
		}
	}
	return text
}

// fence is head and then Fence of text in valid UTF-8, with the source of
// tags given.
func fence(head, kind, text string, newTag func() string) string {
	tag := newTag()
	for strings.Contains(text, tag) {
		tag = newTag()
	}
	b := Text{buf: make([]byte, 0, len(head)+len(text)+128)}
	b.WriteString(head)
	openLine(&b, kind, tag)
	b.WriteString(text)
	if !strings.HasSuffix(text, "\n") {
		b.WriteByte('\n')
	}
	closeLine(&b, tag)
	return b.String()
}

// openLine writes a block's opening line, of kind (letters, digits, '-'
// and '_' kept; "page" left unsaid) and tag.
func openLine(b *Text, kind, tag string) {
	kind = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return -1
	}, kind)
	b.WriteString("<untrusted-page-content ")
	if kind != "" && kind != "page" {
		b.WriteString(`kind="`)
		b.WriteString(kind)
		b.WriteString(`" `)
	}
	b.WriteString(`fence="`)
	b.WriteString(tag)
	b.WriteString("\">\n")
}

// closeLine writes a block's closing line, of tag.
func closeLine(b *Text, tag string) {
	b.WriteString(`</untrusted-page-content fence="`)
	b.WriteString(tag)
	b.WriteString(`">`)
}

// fenceTag is a fresh tag in hex, made in one allocation.
func fenceTag() string {
	var b [6]byte          // 48 bits: a page cannot guess a tag made after it was read
	_, _ = rand.Read(b[:]) // never fails on supported platforms
	var h [2 * len(b)]byte
	hex.Encode(h[:], b[:])
	return string(h[:])
}
