package egress

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
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
	kind = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return -1
	}, kind)
	text = strings.ToValidUTF8(text, "\uFFFD")
	tag := fenceTag()
	for strings.Contains(text, tag) {
		tag = fenceTag()
	}
	var b strings.Builder
	b.Grow(len(text) + 128)
	b.WriteString("<untrusted-page-content ")
	if kind != "" && kind != "page" {
		b.WriteString("kind=\"" + kind + "\" ")
	}
	b.WriteString("fence=\"" + tag + "\">\n")
	b.WriteString(text)
	if !strings.HasSuffix(text, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString("</untrusted-page-content fence=\"" + tag + "\">")
	return b.String()
}

func fenceTag() string {
	var b [6]byte          // 48 bits: a page cannot guess a tag made after it was read
	_, _ = rand.Read(b[:]) // never fails on supported platforms
	return hex.EncodeToString(b[:])
}
