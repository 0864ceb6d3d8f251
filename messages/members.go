package messages

// Member is one field of a JSON object: its key, and its value as it was
// sent (a part of the object's bytes, not a copy).
type Member struct {
	Key   string
	Value []byte
}

// Members splits the JSON object raw into its fields, in their order,
// checking that the whole of raw is one well-formed object, without
// decoding the values: a caller that passes most of an answer on as it came
// reads only what it changes. It reports false for what it does not take
// (not an object, a key named twice, a key that is not plain ASCII), which
// the caller then leaves to encoding/json.
func Members(raw []byte) ([]Member, bool) {
	p := jsonScan{b: raw}
	out := make([]Member, 0, 8)
	ok := p.object(func(key []byte) bool {
		for _, m := range out {
			if m.Key == string(key) {
				return false
			}
		}
		start := p.i
		if !p.skip() {
			return false
		}
		out = append(out, Member{Key: string(key), Value: raw[start:p.i]})
		return true
	})
	p.space()
	if !ok || p.i != len(raw) {
		return nil, false
	}
	return out, true
}

// StringValue is the JSON string v decoded; false when v is not a string
// this reader takes (a surrogate pair among its escapes is left to
// encoding/json).
func StringValue(v []byte) (string, bool) {
	p := jsonScan{b: v}
	var s string
	if !p.str(&s) || p.i != len(v) {
		return "", false
	}
	return s, true
}
