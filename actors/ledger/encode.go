package ledger

import (
	"bytes"
	"encoding/json"
)

// valueVersion is the first byte of every stored value.
const valueVersion byte = 1

// encoder writes values in the form the store keeps them, the version byte
// and then the value's JSON as json.Marshal writes it, into one buffer that
// it reuses: a value costs no allocation of its own. The ledger actor owns
// the one it uses; what add returns is good until the next reset, and a
// Pebble batch copies what it is given.
type encoder struct {
	buf  bytes.Buffer
	json *json.Encoder
}

// reset empties the buffer for the next write's values.
func (e *encoder) reset() { e.buf.Reset() }

// add encodes v after the values already in the buffer and returns where
// its stored form is in it, e.buf.Bytes()[start:end]. A value that cannot
// be encoded leaves the buffer as it was.
func (e *encoder) add(v any) (start, end int, err error) {
	if e.json == nil {
		e.json = json.NewEncoder(&e.buf)
	}
	start = e.buf.Len()
	e.buf.WriteByte(valueVersion)
	if err := e.json.Encode(v); err != nil {
		e.buf.Truncate(start)
		return 0, 0, err
	}
	// Encode ends the value with a newline, which the store leaves out.
	return start, e.buf.Len() - 1, nil
}
