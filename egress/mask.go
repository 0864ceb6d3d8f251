package egress

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// privateKeyBlock is a PEM private key, whole.
var privateKeyBlock = regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY-----|$)`)

// minSecret is the length of the shortest token secretToken can report (a
// Slack token: "xoxb-" and ten characters); shorter ones are never read.
const minSecret = 15

// MaskSecrets replaces what looks like a credential in text read from a
// page (the same table LooksLikeSecret and CheckTyping use) with a marker
// that names its kind, such as "[masked: an API key]", before an agent
// sees it. Private key blocks are masked whole, tokens one by one; the rest
// of the text is kept as it was. It returns the text and the values it
// masked, in order. Like the scan of typed values, it catches plaintext
// only.
func MaskSecrets(text string) (string, []string) {
	var found []string
	if strings.Contains(text, "PRIVATE KEY") {
		text = privateKeyBlock.ReplaceAllStringFunc(text, func(block string) string {
			found = append(found, block)
			return marker("private_key")
		})
	}
	var b strings.Builder
	done := 0  // text[:done] is in b already
	start := 0 // where the current token began
	check := func(end int) {
		tok := text[start:end]
		if len(tok) < minSecret {
			return
		}
		// A sentence's full stop or exclamation after a key is not part of it.
		core := strings.TrimRight(tok, ".!")
		if kind, ok := secretToken(core); ok && core != "" {
			found = append(found, core)
			b.WriteString(text[done:start])
			b.WriteString(marker(kind))
			done = start + len(core)
		}
	}
	for i := 0; i < len(text); {
		c := text[i]
		size := 1
		if c >= utf8.RuneSelf {
			_, size = utf8.DecodeRuneInString(text[i:])
		} else if isTokenBreak(rune(c)) {
			check(i)
			start = i + 1
		}
		i += size
	}
	check(len(text))
	if done == 0 {
		return text, found
	}
	b.WriteString(text[done:])
	return b.String(), found
}

func marker(kind string) string { return "[masked: " + secretNames[kind] + "]" }
