package messages

import "unicode/utf8"

// decodeActFast decodes the common shape of an act's input without
// reflection: one object of the act's text, number and true/false fields,
// and a target given by ref, role, name, by or frame. It answers false for
// anything else (escapes, nulls, lists, nested steps, a wait, a pixel, a
// field named twice or in another case, trailing data, bad JSON), which the
// strict decoder then reads and, when it is wrong, explains. What it
// accepts decodes to what the strict decoder gives.
func decodeActFast(raw []byte, in *ActInput) bool {
	p := fastScan{b: raw}
	if !p.obj(func(key string) bool { return p.actField(key, in) }) {
		return false
	}
	p.space()
	return p.i == len(p.b)
}

type fastScan struct {
	b    []byte
	i    int
	seen uint64 // the fields read, to refuse one named twice
}

func (p *fastScan) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *fastScan) byte(c byte) bool {
	p.space()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// obj reads an object, calling field for each key with the scanner at
// its value.
func (p *fastScan) obj(field func(string) bool) bool {
	if !p.byte('{') {
		return false
	}
	if p.byte('}') {
		return true
	}
	for {
		p.space()
		key, ok := p.str()
		if !ok || !p.byte(':') {
			return false
		}
		p.space()
		if !field(key) {
			return false
		}
		if p.byte('}') {
			return true
		}
		if !p.byte(',') {
			return false
		}
	}
}

// str reads a string without escapes or control characters, of valid UTF-8.
func (p *fastScan) str() (string, bool) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return "", false
	}
	start := p.i + 1
	ascii := true
	for j := start; j < len(p.b); j++ {
		switch c := p.b[j]; {
		case c == '"':
			s := p.b[start:j]
			if !ascii && !utf8.Valid(s) {
				return "", false
			}
			p.i = j + 1
			return string(s), true
		case c == '\\' || c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", false
}

// num reads an integer that fits an int without question.
func (p *fastScan) num() (int, bool) {
	j, neg := p.i, false
	if j < len(p.b) && p.b[j] == '-' {
		neg = true
		j++
	}
	start, n := j, 0
	for j < len(p.b) && p.b[j] >= '0' && p.b[j] <= '9' && j-start < 15 {
		n = n*10 + int(p.b[j]-'0')
		j++
	}
	switch {
	case j == start, p.b[start] == '0' && j-start > 1:
		return 0, false
	case j < len(p.b) && (p.b[j] == '.' || p.b[j] == 'e' || p.b[j] == 'E' || p.b[j] >= '0' && p.b[j] <= '9'):
		return 0, false
	}
	p.i = j
	if neg {
		n = -n
	}
	return n, true
}

func (p *fastScan) boolean() (bool, bool) {
	rest := p.b[p.i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		p.i += 4
		return true, true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		p.i += 5
		return false, true
	}
	return false, false
}

// once marks field bit read, refusing it read before.
func (p *fastScan) once(bit uint) bool {
	if p.seen&(1<<bit) != 0 {
		return false
	}
	p.seen |= 1 << bit
	return true
}

func (p *fastScan) actField(key string, in *ActInput) bool {
	var s *string
	var n *int
	var f *bool
	var bit uint
	switch key {
	case "action":
		s, bit = &in.Action, 0
	case "observation":
		s, bit = &in.Observation, 1
	case "url":
		s, bit = &in.URL, 2
	case "urlSource":
		s, bit = &in.URLSource, 3
	case "value":
		s, bit = &in.Value, 4
	case "secret":
		s, bit = &in.Secret, 5
	case "key":
		s, bit = &in.Key, 6
	case "tab":
		s, bit = &in.Tab, 7
	case "tabId":
		s, bit = &in.TabID, 8
	case "within":
		s, bit = &in.Within, 9
	case "after":
		s, bit = &in.After, 10
	case "rows":
		s, bit = &in.Rows, 11
	case "text":
		s, bit = &in.Text, 12
	case "role":
		s, bit = &in.Role, 13
	case "name":
		s, bit = &in.Name, 14
	case "selector":
		s, bit = &in.Selector, 15
	case "appId":
		s, bit = &in.AppID, 16
	case "app":
		s, bit = &in.App, 17
	case "deltaY":
		n, bit = &in.DeltaY, 18
	case "timeoutMs":
		n, bit = &in.TimeoutMs, 19
	case "maxChars":
		n, bit = &in.MaxChars, 20
	case "fullPage":
		f, bit = &in.FullPage, 21
	case "exact":
		f, bit = &in.Exact, 22
	case "screenshot":
		f, bit = &in.Screenshot, 23
	case "fullRes":
		f, bit = &in.FullRes, 24
	case "target":
		if !p.once(25) {
			return false
		}
		in.Target = &TargetRef{}
		return p.obj(func(k string) bool { return p.targetField(k, in.Target) })
	default:
		return false
	}
	if !p.once(bit) {
		return false
	}
	var ok bool
	switch {
	case s != nil:
		*s, ok = p.str()
	case n != nil:
		*n, ok = p.num()
	default:
		*f, ok = p.boolean()
	}
	return ok
}

func (p *fastScan) targetField(key string, t *TargetRef) bool {
	var s *string
	var bit uint
	switch key {
	case "ref":
		s, bit = &t.Ref, 40
	case "by":
		s, bit = &t.By, 41
	case "role":
		s, bit = &t.Role, 42
	case "name":
		s, bit = &t.Name, 43
	case "frame":
		if !p.once(44) {
			return false
		}
		var ok bool
		t.Frame, ok = p.num()
		return ok
	default:
		return false
	}
	if !p.once(bit) {
		return false
	}
	var ok bool
	*s, ok = p.str()
	return ok
}
