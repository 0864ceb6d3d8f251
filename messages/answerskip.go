package messages

// skip reads over one JSON value, checking it is well formed.
func (p *jsonScan) skip() bool {
	if p.i >= len(p.b) {
		return false
	}
	switch c := p.b[p.i]; {
	case c == '"':
		return p.skipString()
	case c == '{' || c == '[':
		return p.skipNested(c)
	case c == 't':
		return p.literal("true")
	case c == 'f':
		return p.literal("false")
	case c == 'n':
		return p.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return p.skipNumber()
	}
	return false
}

func (p *jsonScan) literal(word string) bool {
	if len(p.b)-p.i < len(word) || string(p.b[p.i:p.i+len(word)]) != word {
		return false
	}
	p.i += len(word)
	return true
}

func (p *jsonScan) skipNested(open byte) bool {
	if p.depth++; p.depth > maxSkipDepth {
		return false
	}
	defer func() { p.depth-- }()
	if open == '{' {
		return p.object(func([]byte) bool { return p.skip() })
	}
	p.i++ // '['
	if p.next(']') {
		return true
	}
	for {
		p.space()
		if !p.skip() {
			return false
		}
		if p.next(']') {
			return true
		}
		if !p.next(',') {
			return false
		}
	}
}

// skipString reads over a string: no control characters, and only the
// escapes JSON has.
func (p *jsonScan) skipString() bool {
	for j := p.i + 1; j < len(p.b); j++ {
		c := p.b[j]
		if !strSpecial[c] {
			continue
		}
		switch {
		case c == '"':
			p.i = j + 1
			return true
		case c < 0x20:
			return false
		case c == '\\':
			if j+1 >= len(p.b) {
				return false
			}
			switch p.b[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j++
			case 'u':
				if _, ok := hex4(p.b[j+2:]); !ok {
					return false
				}
				j += 5
			default:
				return false
			}
		}
	}
	return false
}

// skipNumber reads over a number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *jsonScan) skipNumber() bool {
	j := p.i
	if p.b[j] == '-' {
		j++
	}
	switch {
	case j < len(p.b) && p.b[j] == '0':
		j++
	case j < len(p.b) && p.b[j] >= '1' && p.b[j] <= '9':
		j = digits(p.b, j)
	default:
		return false
	}
	j, ok := fraction(p.b, j)
	if !ok {
		return false
	}
	if j, ok = exponent(p.b, j); !ok {
		return false
	}
	p.i = j
	return true
}

// fraction reads over a number's fraction at b[j:], if it has one.
func fraction(b []byte, j int) (int, bool) {
	if j >= len(b) || b[j] != '.' {
		return j, true
	}
	k := digits(b, j+1)
	return k, k > j+1
}

// exponent reads over a number's exponent at b[j:], if it has one.
func exponent(b []byte, j int) (int, bool) {
	if j >= len(b) || b[j] != 'e' && b[j] != 'E' {
		return j, true
	}
	j++
	if j < len(b) && (b[j] == '+' || b[j] == '-') {
		j++
	}
	k := digits(b, j)
	return k, k > j
}

// digits is the end of the run of digits at b[j:].
func digits(b []byte, j int) int {
	for j < len(b) && b[j] >= '0' && b[j] <= '9' {
		j++
	}
	return j
}
