package messages

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Agent text is refused when it holds a character that can rewrite what
// the owner sees where it is shown (a terminal, the dashboard): control
// characters (C0, DEL and C1: escape sequences, carriage returns, the
// terminal's OSC commands) and the bidirectional embeddings, overrides and
// isolates that reorder text on screen. Text typed into a page may hold
// tabs and line breaks.

// UnsafeRune reports whether r may not appear in agent text; lines lets
// tabs and line breaks through. Surfaces that show text escape what it
// reports with lines false.
func UnsafeRune(r rune, lines bool) bool {
	switch {
	case lines && (r == '\t' || r == '\n' || r == '\r'):
		return false
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true // LRE, RLE, PDF, LRO, RLO; LRI, RLI, FSI, PDI
	case r == 0x2028 || r == 0x2029:
		return !lines // line and paragraph separators
	}
	return false
}

// CheckText refuses agent text that holds a control or bidi control
// character; field names the input, as the sentence's subject. lines allows tabs and
// line breaks (text for a page's fields).
func CheckText(field, s string, lines bool) *Error {
	i := unsafeAt(s, lines)
	if i < 0 {
		return nil
	}
	r := []rune(s[i:])[0]
	what := "a control character"
	if r >= 0x2000 {
		what = "a bidirectional text control"
	}
	allowed := "plain text"
	if lines {
		allowed = "plain text (tabs and line breaks are fine)"
	}
	return Errorf(CodeBadInput, "%s holds %s (%s at byte %d); send %s.", field, what, fmt.Sprintf("U+%04X", r), i, allowed)
}

// unsafeAt is the byte index of the first rune of s that UnsafeRune
// refuses, or -1. Plain ASCII, the text of nearly every act, is checked a
// byte at a time.
func unsafeAt(s string, lines bool) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			if j := strings.IndexFunc(s[i:], func(r rune) bool { return UnsafeRune(r, lines) }); j >= 0 {
				return i + j
			}
			return -1
		case c >= 0x20 && c != 0x7f:
		case UnsafeRune(rune(c), lines):
			return i
		}
	}
	return -1
}

// textField is one text input of an action: its name, its value, and
// whether it may hold line breaks.
type textField struct {
	name, s string
	lines   bool
}

// checkActText checks every text field of one action (not its steps).
func checkActText(in *ActInput) *Error {
	// Room for every field but a long values list: the list stays on the
	// stack.
	fields := append(make([]textField, 0, 24), []textField{
		{"action", in.Action, false}, {"observation", in.Observation, false}, {"url", in.URL, false}, {"urlSource", in.URLSource, false},
		{"value", in.Value, true}, {"key", in.Key, false}, {"tab", in.Tab, false}, {"tabId", in.TabID, false},
		{"within", in.Within, false}, {"after", in.After, false}, {"text", in.Text, false}, {"selector", in.Selector, false},
		{"role", in.Role, false}, {"name", in.Name, false}, {"secret", in.Secret, false},
	}...)
	if in.Target != nil {
		fields = append(fields, textField{"target.ref", in.Target.Ref, false})
	}
	if in.Wait != nil {
		fields = append(fields, textField{"wait.selector", in.Wait.Selector, false},
			textField{"wait.text", in.Wait.Text, false}, textField{"wait.url", in.Wait.URL, false})
	}
	for _, v := range in.Values {
		fields = append(fields, textField{"values", v, true})
	}
	for _, f := range fields {
		// The field's name is spelled out only for a refusal.
		if unsafeAt(f.s, f.lines) >= 0 {
			return CheckText(fmt.Sprintf("The %q input", f.name), f.s, f.lines)
		}
	}
	return nil
}

// Clip cuts s to at most n bytes on a rune boundary, marking a cut with an
// ellipsis: the one way untrusted or unbounded text (a page's title or URL,
// what an agent or a page wrote) is shortened before it is quoted back or
// kept. (Telegram's own limits count UTF-16 units: ui/telegram cuts by
// those.)
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// FirstLine is s up to its first line break.
func FirstLine(s string) string {
	for i := range len(s) {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}
