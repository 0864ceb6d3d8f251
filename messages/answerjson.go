package messages

import (
	"encoding/base64"
	"strconv"
	"time"
	"unicode/utf8"
)

// AppendOK appends the envelope of a successful answer a, and the line's
// end, to b exactly as encoding/json's Encoder writes them, for the answers
// of the agent's hot path (*Observation and *Outcome); ok is false for any
// other answer, which the caller encodes with encoding/json.
func AppendOK(b []byte, a Answer) (_ []byte, ok bool) {
	b = append(b, `{"ok":true,"result":`...)
	switch r := a.(type) {
	case *Observation:
		if r == nil || !jsonTime(r.ObservedAt) {
			return b, false
		}
		b = r.appendJSON(b)
	case *Outcome:
		if r == nil {
			return b, false
		}
		b = r.appendJSON(b)
	default:
		return b, false
	}
	return append(b, "}\n"...), true
}

func (o *Observation) appendJSON(b []byte) []byte {
	b = append(b, '{')
	if o.Outcome != "" {
		b = appendField(b, "outcome", o.Outcome)
		b = append(b, ',')
	}
	b = appendField(b, "observation", o.ID)
	b = append(b, `,"observedAt":"`...)
	b = o.ObservedAt.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `",`...)
	b = appendField(b, "text", o.Text)
	b = append(b, ',')
	b = appendField(b, "url", o.URL)
	b = append(b, ',')
	b = appendField(b, "tab", o.Tab)
	b = appendTabs(b, o.Tabs)
	b = strconv.AppendInt(append(b, `,"stepsLeft":`...), int64(o.StepsLeft), 10)
	if o.Truncated {
		b = append(b, `,"truncated":true`...)
	}
	if c := o.Continues; c != nil {
		b = append(b, `,"continues":{`...)
		if c.FullPage {
			b = append(b, `"fullPage":true,`...)
		}
		if c.Within != "" {
			b = append(appendField(b, "within", c.Within), ',')
		}
		b = append(appendField(b, "after", c.After), '}')
	}
	if o.Left != nil {
		b = strconv.AppendInt(append(b, `,"left":`...), int64(*o.Left), 10)
	}
	b = appendShot(b, o.Screenshot)
	return append(appendTiming(b, o.Timing), '}')
}

func (o *Outcome) appendJSON(b []byte) []byte {
	b = append(b, '{')
	b = appendField(b, "outcome", o.Outcome)
	b = strconv.AppendInt(append(b, `,"stepsLeft":`...), int64(o.StepsLeft), 10)
	b = appendOmitted(b, "url", o.URL)
	b = appendTabs(b, o.Tabs)
	b = appendOmitted(b, "text", o.Text)
	b = appendOmitted(b, "authenticatedUser", o.AuthenticatedUser)
	b = appendShot(b, o.Screenshot)
	if o.Width != 0 {
		b = strconv.AppendInt(append(b, `,"width":`...), int64(o.Width), 10)
	}
	if o.Height != 0 {
		b = strconv.AppendInt(append(b, `,"height":`...), int64(o.Height), 10)
	}
	b = appendOmitted(b, "next", o.Next)
	return append(appendTiming(b, o.Timing), '}')
}

// jsonTime says whether encoding/json writes t as RFC 3339 (its year is
// within 0–9999, its zone's offset within a day); it refuses any other.
func jsonTime(t time.Time) bool {
	if y := t.Year(); y < 0 || y > 9999 {
		return false
	}
	_, off := t.Zone()
	return off > -24*60*60 && off < 24*60*60
}

func appendField(b []byte, name, v string) []byte {
	b = append(append(append(b, '"'), name...), `":`...)
	return appendString(b, v)
}

func appendOmitted(b []byte, name, v string) []byte {
	if v == "" {
		return b
	}
	return appendField(append(b, ','), name, v)
}

func appendTabs(b []byte, tabs []Tab) []byte {
	if len(tabs) == 0 {
		return b
	}
	b = append(b, `,"tabs":[`...)
	for i, t := range tabs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendField(append(b, '{'), "id", t.ID), ',')
		b = appendField(b, "url", t.URL)
		b = strconv.AppendBool(append(b, `,"active":`...), t.Active)
		b = append(b, '}')
	}
	return append(b, ']')
}

func appendShot(b []byte, jpg []byte) []byte {
	if len(jpg) == 0 {
		return b
	}
	b = append(b, `,"screenshot":"`...)
	b = base64.StdEncoding.AppendEncode(b, jpg)
	return append(b, '"')
}

func appendTiming(b []byte, t *Timing) []byte {
	if t == nil {
		return b
	}
	b = strconv.AppendInt(append(b, `,"timing":{"browserWaitMs":`...), t.BrowserWaitMs, 10)
	return append(b, '}')
}

// appendString appends s quoted as encoding/json writes a string with
// HTML escaping (its default): <, > and & as \u00XX, control bytes escaped,
// invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if i += plainRun(s[i:]); i == len(s) {
			break
		}
		esc, size := escapeAt(s, i)
		if esc != "" {
			b = append(append(b, s[start:i]...), esc...)
			start = i + size
		}
		i += size
	}
	return append(append(b, s[start:]...), '"')
}

// plainRun is how many bytes s starts with that are written as they are.
func plainRun(s string) int {
	for i := 0; i < len(s); i++ {
		if !plainByte[s[i]] {
			return i
		}
	}
	return len(s)
}

// escapeAt is what encoding/json writes for the character at s[i], which
// is not a plain ASCII one, and the character's size; "" when it is
// written as it is.
func escapeAt(s string, i int) (string, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return asciiEscapes[c], 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && size == 1:
		return `\ufffd`, 1
	case r == '\u2028':
		return `\u2028`, size
	case r == '\u2029':
		return `\u2029`, size
	}
	return "", size
}

// plainByte marks the bytes appendString copies as they are: the ASCII
// ones encoding/json does not escape.
var plainByte = func() (t [256]bool) {
	for c := range utf8.RuneSelf {
		t[c] = asciiEscapes[c] == ""
	}
	return t
}()

// asciiEscapes is encoding/json's escape of each ASCII byte it escapes
// with HTML escaping on; "" for the bytes it writes as they are.
var asciiEscapes = func() (t [utf8.RuneSelf]string) {
	const hexDigits = "0123456789abcdef"
	for c := range 0x20 {
		t[c] = `\u00` + string(hexDigits[c>>4]) + string(hexDigits[c&0xF])
	}
	t['\b'], t['\f'], t['\n'], t['\r'], t['\t'] = `\b`, `\f`, `\n`, `\r`, `\t`
	t['"'], t['\\'] = `\"`, `\\`
	t['<'], t['>'], t['&'] = `\u003c`, `\u003e`, `\u0026`
	return t
}()

// AppendJSON appends r and the line's end to b exactly as encoding/json's
// Encoder writes them: one line of the audit trail. ok is false for a time
// encoding/json refuses, which the caller encodes with encoding/json.
func (r *AuditRecord) AppendJSON(b []byte) (_ []byte, ok bool) {
	if !jsonTime(r.At) {
		return b, false
	}
	b = append(b, `{"at":"`...)
	b = r.At.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `",`...)
	b = appendField(b, "kind", r.Kind)
	b = appendOmitted(b, "agent", r.Agent)
	b = appendOmitted(b, "conversation", r.Conversation)
	b = appendField(append(b, ','), "action", r.Action)
	b = appendOmitted(b, "target", r.Target)
	if len(r.Steps) > 0 {
		b = append(b, `,"steps":[`...)
		for i, s := range r.Steps {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, s)
		}
		b = append(b, ']')
	}
	b = appendField(append(b, ','), "code", string(r.Code))
	b = appendOmitted(b, "url", r.URL)
	b = appendOmitted(b, "detail", r.Detail)
	return append(b, "}\n"...), true
}
