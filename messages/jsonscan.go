package messages

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// jsonScan reads the JSON shapes buddi's hot paths read without
// reflection (an act's input, the agent API's body, browser.act's answer):
// objects of plain ASCII keys, strings, integers, true and false, and any
// value skipped. Each reader answers false for what it does not take, and
// its caller then leaves the whole value to encoding/json.
type jsonScan struct {
	b     []byte
	i     int
	depth int    // of the values being skipped
	seen  uint64 // the fields read, to refuse one named twice
}

// maxSkipDepth bounds the nesting of values skipped; deeper ones are left
// to encoding/json.
const maxSkipDepth = 64

func (p *jsonScan) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonScan) next(c byte) bool {
	p.space()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// object reads an object whose keys are plain ASCII strings, calling
// field for each with the scanner at its value.
func (p *jsonScan) object(field func([]byte) bool) bool {
	if !p.next('{') {
		return false
	}
	if p.next('}') {
		return true
	}
	for {
		p.space()
		key, ok := p.key()
		if !ok || !p.next(':') {
			return false
		}
		p.space()
		if !field(key) {
			return false
		}
		if p.next('}') {
			return true
		}
		if !p.next(',') {
			return false
		}
	}
}

// key reads a key of printable ASCII without escapes.
func (p *jsonScan) key() ([]byte, bool) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return nil, false
	}
	for j := p.i + 1; j < len(p.b); j++ {
		switch c := p.b[j]; {
		case c == '"':
			k := p.b[p.i+1 : j]
			p.i = j + 1
			return k, true
		case c == '\\' || c < 0x20 || c >= utf8.RuneSelf:
			return nil, false
		}
	}
	return nil, false
}

func (p *jsonScan) boolean(dst *bool) bool {
	rest := p.b[p.i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		*dst, p.i = true, p.i+4
	case len(rest) >= 5 && string(rest[:5]) == "false":
		*dst, p.i = false, p.i+5
	default:
		return false
	}
	return true
}

// strSpecial marks the bytes a string's first reading stops at: its end,
// an escape, a control character, a byte beyond ASCII.
var strSpecial = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c == '"' || c == '\\' || c < 0x20 || c >= utf8.RuneSelf
	}
	return t
}()

// str reads a string of valid UTF-8 into dst, unquoting its escapes but
// for surrogates.
func (p *jsonScan) str(dst *string) bool {
	raw, escaped, ok := p.rawString()
	if ok {
		*dst, ok = stringOf(raw, escaped)
	}
	return ok
}

// strInto is str into dst's room, which it replaces: a caller that reads
// many strings one at a time keeps one buffer for them.
func (p *jsonScan) strInto(dst *[]byte) bool {
	raw, escaped, ok := p.rawString()
	if !ok {
		return false
	}
	if !escaped {
		*dst = append((*dst)[:0], raw...)
		return true
	}
	out, ok := unquote((*dst)[:0], raw)
	if ok {
		*dst = out
	}
	return ok
}

// stringOf is raw as a string, its escapes undone when it has any, in one
// allocation.
func stringOf(raw []byte, escaped bool) (string, bool) {
	if !escaped {
		return string(raw), true
	}
	var b strings.Builder
	b.Grow(len(raw))
	for {
		k := bytes.IndexByte(raw, '\\')
		if k < 0 {
			b.Write(raw)
			return b.String(), true
		}
		b.Write(raw[:k])
		r, n, ok := unescape(raw[k:])
		if !ok {
			return "", false
		}
		b.WriteRune(r)
		raw = raw[k+n:]
	}
}

// rawString reads a string of valid UTF-8 and returns its bytes between
// the quotes, escapes as they are, and whether it has any.
func (p *jsonScan) rawString() (raw []byte, escaped, ok bool) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return nil, false, false
	}
	start := p.i + 1
	ascii := true
	for j := start; j < len(p.b); j++ {
		c := p.b[j]
		if !strSpecial[c] {
			continue
		}
		switch {
		case c == '"':
			raw = p.b[start:j]
			if !ascii && !utf8.Valid(raw) {
				return nil, false, false
			}
			p.i = j + 1
			return raw, escaped, true
		case c == '\\':
			escaped = true
			j++ // the escaped byte ends nothing; unquote checks it
		case c < 0x20:
			return nil, false, false
		default:
			ascii = false
		}
	}
	return nil, false, false
}

// unquote appends raw, a string's bytes between its quotes, with its
// escapes undone, to dst.
func unquote(dst, raw []byte) ([]byte, bool) {
	for {
		k := bytes.IndexByte(raw, '\\')
		if k < 0 {
			return append(dst, raw...), true
		}
		dst = append(dst, raw[:k]...)
		r, n, ok := unescape(raw[k:])
		if !ok {
			return dst, false
		}
		dst = utf8.AppendRune(dst, r)
		raw = raw[k+n:]
	}
}

// unescape reads the escape e starts with (at its backslash): the rune it
// stands for and how many bytes it took.
func unescape(e []byte) (rune, int, bool) {
	if len(e) < 2 {
		return 0, 0, false
	}
	switch c := e[1]; c {
	case '"', '\\', '/':
		return rune(c), 2, true
	case 'b':
		return '\b', 2, true
	case 'f':
		return '\f', 2, true
	case 'n':
		return '\n', 2, true
	case 'r':
		return '\r', 2, true
	case 't':
		return '\t', 2, true
	case 'u':
		r, ok := hex4(e[2:])
		if !ok || utf8.RuneLen(r) < 0 { // a surrogate: encoding/json pairs them
			return 0, 0, false
		}
		return r, 6, true
	}
	return 0, 0, false
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// plain reads a string without escapes or control characters, of valid
// UTF-8.
func (p *jsonScan) plain() (string, bool) {
	raw, escaped, ok := p.rawString()
	if !ok || escaped {
		return "", false
	}
	return string(raw), true
}

// num reads an integer that fits an int without question: at most 15
// digits, no leading zero, no fraction or exponent.
func (p *jsonScan) num() (int, bool) {
	j, neg := p.i, false
	if j < len(p.b) && p.b[j] == '-' {
		neg = true
		j++
	}
	start, n := j, 0
	for j < len(p.b) && isDigit(p.b[j]) && j-start < 15 {
		n = n*10 + int(p.b[j]-'0')
		j++
	}
	if j == start || p.b[start] == '0' && j-start > 1 || j < len(p.b) && numberGoesOn(p.b[j]) {
		return 0, false
	}
	p.i = j
	if neg {
		n = -n
	}
	return n, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// numberGoesOn says c continues a number num does not read.
func numberGoesOn(c byte) bool { return c == '.' || c == 'e' || c == 'E' || isDigit(c) }

// once marks field bit read, refusing it read before.
func (p *jsonScan) once(bit uint) bool {
	if p.seen&(1<<bit) != 0 {
		return false
	}
	p.seen |= 1 << bit
	return true
}
