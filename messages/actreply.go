package messages

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// ActReply is browser.act's answer as an agent's client reads it: the
// envelope, with the fields of the result a client reads on every act.
type ActReply struct {
	OK     bool           `json:"ok"`
	Result ActReplyResult `json:"result"`
	Error  *Error         `json:"error,omitempty"`
}

// ActReplyResult is what ActReply keeps of the result.
type ActReplyResult struct {
	Observation string `json:"observation"`
	URL         string `json:"url"`
	Text        string `json:"text"`
	Outcome     string `json:"outcome"`
}

// DecodeFast decodes b into r without reflection when b is a successful
// answer as buddi writes one: an object of "ok" and a "result" object whose
// fields r keeps are strings, the rest of it any JSON. It answers false,
// and leaves r as it was, for anything else (an error, a null, a key that
// only matches in another case, a surrogate or a byte that is not UTF-8 in
// a string r keeps, bad JSON), which encoding/json then reads. What it
// accepts decodes to what json.Unmarshal gives.
func (r *ActReply) DecodeFast(b []byte) bool {
	v := *r
	p := answerScan{b: b}
	ok := p.object(func(key []byte) bool {
		switch string(key) {
		case "ok":
			return p.boolean(&v.OK)
		case "result":
			return p.object(func(k []byte) bool { return p.resultField(k, &v.Result) })
		}
		return p.other(key, "ok", "result", "error")
	})
	p.space()
	if !ok || p.i != len(p.b) {
		return false
	}
	*r = v
	return true
}

func (p *answerScan) resultField(key []byte, res *ActReplyResult) bool {
	switch string(key) {
	case "observation":
		return p.str(&res.Observation)
	case "url":
		return p.str(&res.URL)
	case "text":
		return p.str(&res.Text)
	case "outcome":
		return p.str(&res.Outcome)
	}
	return p.other(key, "observation", "url", "text", "outcome")
}

// answerScan reads an answer without reflection.
type answerScan struct {
	b     []byte
	i     int
	depth int
}

// maxSkipDepth bounds the nesting of values skipped; deeper ones are left
// to encoding/json.
const maxSkipDepth = 64

func (p *answerScan) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *answerScan) next(c byte) bool {
	p.space()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// object reads an object whose keys are plain ASCII strings, calling
// field for each with the scanner at its value.
func (p *answerScan) object(field func([]byte) bool) bool {
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
func (p *answerScan) key() ([]byte, bool) {
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

// other skips the value of a key that is none of known, unless it is one
// of them in another case, which encoding/json would take for it.
func (p *answerScan) other(key []byte, known ...string) bool {
	for _, k := range known {
		if asciiFold(key, k) {
			return false
		}
	}
	return p.skip()
}

// asciiFold reports whether key, of ASCII, is k in any case.
func asciiFold(key []byte, k string) bool {
	if len(key) != len(k) {
		return false
	}
	for i := range len(k) {
		if lower(key[i]) != lower(k[i]) {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func (p *answerScan) boolean(dst *bool) bool {
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
func (p *answerScan) str(dst *string) bool {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return false
	}
	start := p.i + 1
	escaped, ascii := false, true
	for j := start; j < len(p.b); j++ {
		c := p.b[j]
		if !strSpecial[c] {
			continue
		}
		switch {
		case c == '"':
			raw := p.b[start:j]
			if !ascii && !utf8.Valid(raw) {
				return false
			}
			if !escaped {
				*dst = string(raw)
			} else if !unquote(raw, dst) {
				return false
			}
			p.i = j + 1
			return true
		case c == '\\':
			escaped = true
			j++ // the escaped byte ends nothing; unquote checks it
		case c < 0x20:
			return false
		default:
			ascii = false
		}
	}
	return false
}

// unquote writes raw, a string's bytes between its quotes, with its
// escapes undone, to dst.
func unquote(raw []byte, dst *string) bool {
	var b strings.Builder
	b.Grow(len(raw))
	for {
		k := bytes.IndexByte(raw, '\\')
		if k < 0 {
			b.Write(raw)
			*dst = b.String()
			return true
		}
		b.Write(raw[:k])
		n, ok := escape(&b, raw[k:])
		if !ok {
			return false
		}
		raw = raw[k+n:]
	}
}

// escape writes the escape e starts with (at its backslash) to b and says
// how many bytes it took.
func escape(b *strings.Builder, e []byte) (int, bool) {
	if len(e) < 2 {
		return 0, false
	}
	switch c := e[1]; c {
	case '"', '\\', '/':
		b.WriteByte(c)
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'u':
		r, ok := hex4(e[2:])
		if !ok || utf8.RuneLen(r) < 0 { // a surrogate: encoding/json pairs them
			return 0, false
		}
		b.WriteRune(r)
		return 6, true
	default:
		return 0, false
	}
	return 2, true
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
