package messages

import (
	"bytes"
	"encoding/json"
	"testing"
)

// toolBodySlow is how the agent API decoded its body before SplitToolBody:
// one value, unknown fields refused.
func toolBodySlow(body []byte) (string, json.RawMessage, error) {
	var b struct {
		Conversation string          `json:"conversation"`
		Input        json.RawMessage `json:"input"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	err := dec.Decode(&b)
	return b.Conversation, b.Input, err
}

var toolBodies = []struct {
	body string
	fast bool // SplitToolBody reads it itself
}{
	{`{"conversation":"c1","input":{"action":"observe"}}`, true},
	{` { "input" : {"action":"click","target":{"ref":"e1"},"observation":"o-1"} , "conversation" : "c-2" } `, true},
	{`{"conversation":"c1","input":{"a":"}{\"]","b":[{"c":[1,2,{}]}]}}`, true},
	{`{"conversation":"c1"}`, true},
	{`{}`, true},
	{`{"conversation":"c1","input":{"action":"observe"}} trailing`, false},
	{`{"conversation":"c1","input":{"action":"observe"}}{}`, false},
	{`{"conversation":"c1","input":{"action":"observe",}}`, false},
	{`{"conversation":"c1","input":{"action":"observe"}`, false},
	{`{"conversation":"c1","input":{"action":"obs`, false},
	{`{"conversation":"c1","input":null}`, false},
	{`{"conversation":"c1","input":"observe"}`, false},
	{`{"conversation":"c1","input":[1]}`, false},
	{`{"Conversation":"c1","input":{}}`, false},
	{`{"conversation":"c1","conversation":"c2","input":{}}`, false},
	{`{"conversation":"c\u00e91","input":{}}`, false},
	{`{"conversation":"c1\n","input":{}}`, false},
	{`{"conversation":1,"input":{}}`, false},
	{`{"conversation":"c1","input":{},"extra":1}`, false},
	{`{"conversation":"c1","input":{"x":"\u0000"}}`, true},
	{"{\"conversation\":\"c1\",\"input\":{\"x\":\"\xff\"}}", true},
	{`{"conversation":"c1","input":{"x":"a\\"}}`, true},
	{`{"conversation":"c1","input":{"x":"a\\\"}"}}`, true},
	{`{"conversation":"c1","input":{]}`, false},
	{`[]`, false},
	{``, false},
	{`nul`, false},
}

// TestSplitToolBodyReadsWhatTheDecoderReads: every body SplitToolBody
// reads, encoding/json decodes to the same conversation and input; the
// others are left to encoding/json.
func TestSplitToolBodyReadsWhatTheDecoderReads(t *testing.T) {
	for _, c := range toolBodies {
		conv, input, ok := SplitToolBody([]byte(c.body))
		if ok != c.fast {
			t.Errorf("%s: read itself %v, want %v", c.body, ok, c.fast)
			continue
		}
		if !ok {
			continue
		}
		sc, si, err := toolBodySlow([]byte(c.body))
		if err != nil {
			t.Errorf("%s: read, but the decoder refuses it: %v", c.body, err)
			continue
		}
		if conv != sc || !bytes.Equal(input, si) {
			t.Errorf("%s: read %q %s, the decoder %q %s", c.body, conv, input, sc, si)
		}
	}
}

// TestSplitToolBodyGivesTheInputObjectAlone: the input is the object's
// bytes and no more, so that appending to it cannot write over the body
// after it.
func TestSplitToolBodyGivesTheInputObjectAlone(t *testing.T) {
	body := []byte(`{"conversation":"c1","input":{"action":"observe"}}`)
	_, input, ok := SplitToolBody(body)
	if !ok {
		t.Fatal("not read")
	}
	if string(input) != `{"action":"observe"}` {
		t.Fatalf("input %s", input)
	}
	_ = append(input, "xx"...)
	if string(body) != `{"conversation":"c1","input":{"action":"observe"}}` {
		t.Fatalf("appending to the input changed the body: %s", body)
	}
}

// FuzzSplitToolBody checks that whatever SplitToolBody reads, the decoder
// accepts too and decodes to the same values.
func FuzzSplitToolBody(f *testing.F) {
	for _, c := range toolBodies {
		f.Add([]byte(c.body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		conv, input, ok := SplitToolBody(body)
		if !ok {
			return
		}
		sc, si, err := toolBodySlow(body)
		if err != nil {
			t.Fatalf("%q: read, but the decoder refuses it: %v", body, err)
		}
		if conv != sc || !bytes.Equal(input, si) {
			t.Fatalf("%q: read %q %s, the decoder %q %s", body, conv, input, sc, si)
		}
	})
}
