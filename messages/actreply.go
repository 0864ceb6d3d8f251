package messages

// ActReply is browser.act's answer as an agent's client reads it: the
// envelope, with the fields of the result a client reads on every act.
type ActReply struct {
	OK     bool           `json:"ok"`
	Result ActReplyResult `json:"result"`
	Error  *ActReplyError `json:"error,omitempty"`
	// TextInto, when set, is where DecodeFast puts the result's text,
	// unquoted, in the room it has, instead of Result.Text: a reader of
	// many answers keeps one buffer for their texts. It is emptied first;
	// when DecodeFast answers false it stays empty, and encoding/json puts
	// the text in Result.Text.
	TextInto *[]byte `json:"-"`
}

// ActReplyResult is what ActReply keeps of the result.
type ActReplyResult struct {
	Observation string `json:"observation"`
	URL         string `json:"url"`
	Text        string `json:"text"`
	Outcome     string `json:"outcome"`
}

// ActReplyError is what ActReply keeps of a refusal: its code and
// sentence, and the page as it is now when the refusal brings it.
type ActReplyError struct {
	Code        Code            `json:"code"`
	Message     string          `json:"message"`
	Observation *ActReplyResult `json:"observation,omitempty"`
}

// DecodeFast decodes b into r without reflection when b is an answer as
// buddi writes one: an object of "ok" and a "result" object, or of an
// "error" object, whose fields r keeps are strings (the error's
// observation an object as the result is), the rest of it any JSON. It
// answers false, and leaves r as it was, for anything else (a null result,
// a key that only matches in another case, a surrogate or a byte that is
// not UTF-8 in a string r keeps, bad JSON), which encoding/json then
// reads. What it accepts decodes to what json.Unmarshal gives.
func (r *ActReply) DecodeFast(b []byte) bool {
	v := *r
	if v.TextInto != nil {
		*v.TextInto = (*v.TextInto)[:0]
	}
	p := jsonScan{b: b}
	ok := p.object(func(key []byte) bool {
		switch string(key) {
		case "ok":
			return p.boolean(&v.OK)
		case "result":
			return p.object(func(k []byte) bool { return p.resultField(k, &v.Result, v.TextInto) })
		case "error":
			return p.refusal(&v.Error)
		}
		return p.other(key, "ok", "result", "error")
	})
	p.space()
	if !ok || p.i != len(p.b) {
		if v.TextInto != nil {
			*v.TextInto = (*v.TextInto)[:0]
		}
		return false
	}
	*r = v
	return true
}

// resultField reads one field of the result into res, its text into
// textInto when that is set.
func (p *jsonScan) resultField(key []byte, res *ActReplyResult, textInto *[]byte) bool {
	switch string(key) {
	case "observation":
		return p.str(&res.Observation)
	case "url":
		return p.str(&res.URL)
	case "text":
		if textInto != nil {
			return p.strInto(textInto)
		}
		return p.str(&res.Text)
	case "outcome":
		return p.str(&res.Outcome)
	}
	return p.other(key, "observation", "url", "text", "outcome")
}

// refusal reads an error object into *dst, its observation as a result.
func (p *jsonScan) refusal(dst **ActReplyError) bool {
	return pointerTo(p, dst, func(e *ActReplyError, key []byte) bool {
		switch string(key) {
		case "code":
			return p.str((*string)(&e.Code))
		case "message":
			return p.str(&e.Message)
		case "observation":
			return pointerTo(p, &e.Observation, func(o *ActReplyResult, k []byte) bool { return p.resultField(k, o, nil) })
		}
		return p.other(key, "code", "message", "observation")
	})
}

// pointerTo reads an object into *dst as encoding/json reads one through
// a pointer: null makes it nil; else the fields go into a copy of what it
// points to, if anything, which it points to once the whole object is read.
func pointerTo[T any](p *jsonScan, dst **T, field func(*T, []byte) bool) bool {
	if p.literal("null") {
		*dst = nil
		return true
	}
	var v T
	if *dst != nil {
		v = **dst
	}
	if !p.object(func(key []byte) bool { return field(&v, key) }) {
		return false
	}
	*dst = &v
	return true
}

// other skips the value of a key that is none of known, unless it is one
// of them in another case, which encoding/json would take for it.
func (p *jsonScan) other(key []byte, known ...string) bool {
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
