package messages

// ActReply is browser.act's answer as an agent's client reads it: the
// envelope, with the fields of the result a client reads on every act.
type ActReply struct {
	OK     bool           `json:"ok"`
	Result ActReplyResult `json:"result"`
	Error  *Error         `json:"error,omitempty"`
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

// DecodeFast decodes b into r without reflection when b is a successful
// answer as buddi writes one: an object of "ok" and a "result" object whose
// fields r keeps are strings, the rest of it any JSON. It answers false,
// and leaves r as it was, for anything else (an error, a null, a key that
// only matches in another case, a surrogate or a byte that is not UTF-8 in
// a string r keeps, bad JSON), which encoding/json then reads. What it
// accepts decodes to what json.Unmarshal gives.
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
