package loadtest

import (
	"strconv"
	"unicode/utf8"
)

// act is one browser.act input, encoded by hand into a reused buffer: the
// harness sends thousands a second and must stay cheap.
type act struct {
	action      string
	observation string
	ref         string
	url         string
	value       string
	values      string // one select choice
	key         string
	deltaY      int
	text        string // find
	within      string // observe within a region
}

func (a *act) appendBody(b []byte, conv string) []byte {
	b = append(b, `{"conversation":`...)
	b = appendString(b, conv)
	b = append(b, `,"input":{"action":`...)
	b = appendString(b, a.action)
	if a.observation != "" {
		b = append(b, `,"observation":`...)
		b = appendString(b, a.observation)
	}
	if a.ref != "" {
		b = append(b, `,"target":{"ref":`...)
		b = appendString(b, a.ref)
		b = append(b, '}')
	}
	if a.url != "" {
		b = append(b, `,"url":`...)
		b = appendString(b, a.url)
	}
	if a.value != "" {
		b = append(b, `,"value":`...)
		b = appendString(b, a.value)
	}
	if a.values != "" {
		b = append(b, `,"values":[`...)
		b = appendString(b, a.values)
		b = append(b, ']')
	}
	if a.key != "" {
		b = append(b, `,"key":`...)
		b = appendString(b, a.key)
	}
	if a.text != "" {
		b = append(b, `,"text":`...)
		b = appendString(b, a.text)
	}
	if a.within != "" {
		b = append(b, `,"within":`...)
		b = appendString(b, a.within)
	}
	if a.deltaY != 0 {
		b = append(b, `,"deltaY":`...)
		b = strconv.AppendInt(b, int64(a.deltaY), 10)
	}
	return append(b, "}}"...)
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
			i++
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			i++
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, s[i:i+n]...)
			}
			i += n
		}
	}
	return append(b, '"')
}
