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
	text, found := maskKeys(text)
	s := scanSecrets(text)
	return s.apply(text, false), s.values(text, found)
}

// maskKeys masks private key blocks whole, the one kind of secret that
// spans tokens, and returns the text and the blocks it masked.
func maskKeys(text string) (string, []string) {
	if !strings.Contains(text, "PRIVATE KEY") {
		return text, nil
	}
	var found []string
	text = privateKeyBlock.ReplaceAllStringFunc(text, func(block string) string {
		found = append(found, block)
		return marker("private_key")
	})
	return text, found
}

// secretSpan is one token of a text that looks like a credential:
// text[start:end], of the kind secretToken named.
type secretSpan struct {
	start, end int
	kind       string
}

// secretScan is what one pass over a text found: the tokens to mask, in
// order, and whether the text holds bytes that are not UTF-8.
type secretScan struct {
	spans   []secretSpan
	invalid bool
}

// tokenBreaks marks the bytes isTokenBreak splits at; bytes of a
// multi-byte character never split.
var tokenBreaks = func() (t [256]bool) {
	for c := range utf8.RuneSelf {
		t[c] = isTokenBreak(rune(c))
	}
	return t
}()

// scanSecrets reads text once, token by token, for what looks like a
// credential, and notes on the way whether it is valid UTF-8.
func scanSecrets(text string) secretScan {
	var s secretScan
	start := 0 // where the current token began
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if tokenBreaks[c] {
				if i-start >= minSecret { // most tokens are words, too short to look at
					s.check(text, start, i)
				}
				start = i + 1
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		s.invalid = s.invalid || r == utf8.RuneError && size == 1
		i += size
	}
	s.check(text, start, len(text))
	return s
}

// check notes text[start:end], a whole token, if it looks like a secret.
// A sentence's full stop or exclamation after a key is not part of it.
func (s *secretScan) check(text string, start, end int) {
	if end-start < minSecret {
		return
	}
	for end > start && (text[end-1] == '.' || text[end-1] == '!') {
		end--
	}
	core := text[start:end]
	if kind, ok := secretToken(core); ok && core != "" {
		s.spans = append(s.spans, secretSpan{start, start + len(core), kind})
	}
}

// values appends the masked tokens of text to found.
func (s secretScan) values(text string, found []string) []string {
	for _, sp := range s.spans {
		found = append(found, text[sp.start:sp.end])
	}
	return found
}

// apply is text with each span replaced by its marker and, when valid is
// asked for, each run of bytes that are not UTF-8 by U+FFFD. It is text
// itself when there is nothing to change.
func (s secretScan) apply(text string, valid bool) string {
	fix := valid && s.invalid
	if len(s.spans) == 0 && !fix {
		return text
	}
	var b strings.Builder
	b.Grow(len(text) + 32*len(s.spans))
	done := 0 // text[:done] is in b already
	for _, sp := range s.spans {
		writeText(&b, text[done:sp.start], fix)
		b.WriteString(marker(sp.kind))
		done = sp.end
	}
	writeText(&b, text[done:], fix)
	return b.String()
}

// writeText writes s to b, with each run of bytes that are not UTF-8 as
// U+FFFD when fix is set. Spans begin and end at ASCII bytes, so fixing a
// text piece by piece between them is fixing it whole.
func writeText(b *strings.Builder, s string, fix bool) {
	if fix {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	b.WriteString(s)
}

func marker(kind string) string { return "[masked: " + secretNames[kind] + "]" }
