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

// num reads an integer that fits an int without question: at most 15
// digits, no leading zero, no fraction or exponent.
func (p *fastScan) num() (int, bool) {
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

// actField is one field of the fast decoder: its bit in fastScan.seen and
// where its value goes (one of s, n, f).
type actField struct {
	bit uint
	s   func(*ActInput) *string
	n   func(*ActInput) *int
	f   func(*ActInput) *bool
}

var actFields = map[string]actField{
	"action":      {bit: 0, s: func(in *ActInput) *string { return &in.Action }},
	"observation": {bit: 1, s: func(in *ActInput) *string { return &in.Observation }},
	"url":         {bit: 2, s: func(in *ActInput) *string { return &in.URL }},
	"urlSource":   {bit: 3, s: func(in *ActInput) *string { return &in.URLSource }},
	"value":       {bit: 4, s: func(in *ActInput) *string { return &in.Value }},
	"secret":      {bit: 5, s: func(in *ActInput) *string { return &in.Secret }},
	"key":         {bit: 6, s: func(in *ActInput) *string { return &in.Key }},
	"tab":         {bit: 7, s: func(in *ActInput) *string { return &in.Tab }},
	"tabId":       {bit: 8, s: func(in *ActInput) *string { return &in.TabID }},
	"within":      {bit: 9, s: func(in *ActInput) *string { return &in.Within }},
	"after":       {bit: 10, s: func(in *ActInput) *string { return &in.After }},
	"rows":        {bit: 11, s: func(in *ActInput) *string { return &in.Rows }},
	"text":        {bit: 12, s: func(in *ActInput) *string { return &in.Text }},
	"role":        {bit: 13, s: func(in *ActInput) *string { return &in.Role }},
	"name":        {bit: 14, s: func(in *ActInput) *string { return &in.Name }},
	"selector":    {bit: 15, s: func(in *ActInput) *string { return &in.Selector }},
	"appId":       {bit: 16, s: func(in *ActInput) *string { return &in.AppID }},
	"app":         {bit: 17, s: func(in *ActInput) *string { return &in.App }},
	"deltaY":      {bit: 18, n: func(in *ActInput) *int { return &in.DeltaY }},
	"timeoutMs":   {bit: 19, n: func(in *ActInput) *int { return &in.TimeoutMs }},
	"maxChars":    {bit: 20, n: func(in *ActInput) *int { return &in.MaxChars }},
	"fullPage":    {bit: 21, f: func(in *ActInput) *bool { return &in.FullPage }},
	"exact":       {bit: 22, f: func(in *ActInput) *bool { return &in.Exact }},
	"screenshot":  {bit: 23, f: func(in *ActInput) *bool { return &in.Screenshot }},
	"fullRes":     {bit: 24, f: func(in *ActInput) *bool { return &in.FullRes }},
	"thenObserve": {bit: 26, f: func(in *ActInput) *bool { return &in.ThenObserve }},
}

const targetBit = 25

func (p *fastScan) actField(key string, in *ActInput) bool {
	if key == "target" {
		if !p.once(targetBit) {
			return false
		}
		in.Target = &TargetRef{}
		return p.obj(func(k string) bool { return p.targetField(k, in.Target) })
	}
	fd, ok := actFields[key]
	if !ok || !p.once(fd.bit) {
		return false
	}
	switch {
	case fd.s != nil:
		*fd.s(in), ok = p.str()
	case fd.n != nil:
		*fd.n(in), ok = p.num()
	default:
		*fd.f(in), ok = p.boolean()
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
