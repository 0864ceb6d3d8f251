package messages

import "encoding/json"

// SplitToolBody reads the agent API's request body in the shape agents
// send it, {"conversation": "c1", "input": {...}}: the conversation (a
// string without escapes) and the input object's JSON, which shares
// body's bytes: a caller that keeps it past body's life copies it. ok is
// false for a body in any other shape (a key in another case or named
// twice, escapes, an input that is not an object, data after the body);
// the caller then decodes it with encoding/json as before, which answers
// such a body the same way or refuses it. Whatever it accepts,
// json.Decoder with DisallowUnknownFields decodes to the same values.
func SplitToolBody(body []byte) (conv string, input json.RawMessage, ok bool) {
	p := jsonScan{b: body}
	if !p.object(func(key []byte) bool {
		switch string(key) {
		case "conversation":
			if !p.once(0) {
				return false
			}
			s, ok := p.plain()
			conv = s
			return ok
		case "input":
			if !p.once(1) {
				return false
			}
			end := objectEnd(body, p.i)
			if end < 0 || !json.Valid(body[p.i:end]) {
				return false
			}
			input = body[p.i:end:end]
			p.i = end
			return true
		}
		return false
	}) {
		return "", nil, false
	}
	p.space()
	if p.i != len(body) {
		return "", nil, false
	}
	return conv, input, true
}

// objectEnd is the index just past the object that starts at b[i], found
// by its brackets outside strings, or -1. It does not check the object is
// valid JSON.
func objectEnd(b []byte, i int) int {
	if i >= len(b) || b[i] != '{' {
		return -1
	}
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			if i >= len(b) {
				return -1
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}
