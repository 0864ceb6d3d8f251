package ui

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/buddi-dev/buddi/messages"
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

// TestACallKeepsNoByteOfItsRequest: the server reuses a request's buffer
// once it answered, and a call may be read after that (a task's input by
// the controller, an act by its session). Each call is read, the body
// written over, and the call read again.
func TestACallKeepsNoByteOfItsRequest(t *testing.T) {
	for _, c := range []struct {
		tool, body string
		check      func(*messages.ToolCall) string
	}{
		{messages.ToolAct, `{"conversation":"c1","input":{"action":"navigate","url":"https://example.org/a"}}`, func(call *messages.ToolCall) string {
			if call.Act == nil || call.Act.Action != "navigate" || call.Act.URL != "https://example.org/a" || call.Input != nil {
				return "the act is not the navigate sent, or its raw input was kept"
			}
			return ""
		}},
		{messages.ToolTask, `{"conversation":"c1","input":{"description":"read the news","steps":10}}`, func(call *messages.ToolCall) string {
			if string(call.Input) != `{"description":"read the news","steps":10}` {
				return "the task's input is " + string(call.Input)
			}
			return ""
		}},
		{messages.ToolStatus, `{"conversation":"c1","input":{}}`, func(call *messages.ToolCall) string {
			if string(call.Input) != `{}` {
				return "the status call's input is " + string(call.Input)
			}
			return ""
		}},
	} {
		body := []byte(c.body)
		b, ok := decodeToolBody(body)
		if !ok {
			t.Fatalf("%s: not read", c.body)
		}
		call, e := decodeCall(c.tool, b.Conversation, b.Input)
		if e != nil {
			t.Fatalf("%s: %v", c.body, e)
		}
		for i := range body {
			body[i] = 'x'
		}
		if call.Conversation != "c1" {
			t.Errorf("%s: conversation %q after the body was reused", c.tool, call.Conversation)
		}
		if why := c.check(call); why != "" {
			t.Errorf("%s after the body was reused: %s", c.tool, why)
		}
	}
}
