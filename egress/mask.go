package egress

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// privateKeyBlock is a PEM private key, whole.
var privateKeyBlock = regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY-----|$)`)

// MaskSecrets replaces what looks like a credential in text read from a
// page (the same table LooksLikeSecret and CheckTyping use) with a marker
// that names its kind, such as "[masked: an API key]", before an agent
// sees it. Private key blocks are masked whole, tokens one by one; the rest
// of the text is kept as it was. It returns the text and how many values
// it masked. Like the scan of typed values, it catches plaintext only.
func MaskSecrets(text string) (string, int) {
	n := 0
	text = privateKeyBlock.ReplaceAllStringFunc(text, func(string) string {
		n++
		return marker("private_key")
	})
	var b strings.Builder
	start := 0 // where the current token began
	flush := func(end int) {
		tok := text[start:end]
		// A sentence's full stop or exclamation after a key is not part of it.
		core := strings.TrimRight(tok, ".!")
		if kind, ok := secretToken(core); ok && core != "" {
			n++
			b.WriteString(marker(kind) + tok[len(core):])
			return
		}
		b.WriteString(tok)
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if isTokenBreak(r) {
			flush(i)
			b.WriteString(text[i : i+size])
			start = i + size
		}
		i += size
	}
	flush(len(text))
	if n == 0 {
		return text, 0
	}
	return b.String(), n
}

func marker(kind string) string { return "[masked: " + secretNames[kind] + "]" }
