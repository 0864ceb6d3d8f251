package ui

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestDecodeToolBodyAnswersAsTheDecoderDid runs bodies of every shape
// through decodeToolBody and through the decoder the tool route used
// before it: both accept the same bodies and read the same values.
func TestDecodeToolBodyAnswersAsTheDecoderDid(t *testing.T) {
	for _, body := range []string{
		`{"conversation":"c1","input":{"action":"observe"}}`,
		`{"conversation":"c1","input":{"action":"observe"}} and more`, // the decoder read one value
		`{"Conversation":"c1","input":{"action":"observe"}}`,
		`{"conversation":"c\u00e9","input":{"action":"observe"}}`,
		`{"conversation":"c1","input":{"action":"observe"},"extra":true}`,
		`{"conversation":"c1","input":{"action":}}`,
		`{"conversation":"c1","input":null}`,
		`{"conversation":2,"input":{}}`,
		`not json`,
		``,
	} {
		var want toolBody
		dec := json.NewDecoder(bytes.NewReader([]byte(body)))
		dec.DisallowUnknownFields()
		wantOK := dec.Decode(&want) == nil
		got, ok := decodeToolBody([]byte(body))
		if ok != wantOK {
			t.Errorf("%s: accepted %v, the decoder %v", body, ok, wantOK)
			continue
		}
		if ok && (got.Conversation != want.Conversation || !bytes.Equal(got.Input, want.Input)) {
			t.Errorf("%s: read %q %s, the decoder %q %s", body, got.Conversation, got.Input, want.Conversation, want.Input)
		}
	}
}
