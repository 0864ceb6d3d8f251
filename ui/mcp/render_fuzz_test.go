package mcp_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	buddimcp "github.com/buddi-dev/buddi/ui/mcp"
)

// FuzzRender feeds daemon results to the renderer: whatever the daemon
// sends, the agent gets a text first and a result that encodes, and the
// same result as the renderer that decodes the whole answer gives: the
// same contents, and structured content that decodes to the same value.
func FuzzRender(f *testing.F) {
	f.Add([]byte(`{"text":"Observed.","observation":"o1","screenshot":"/9j/4AAQ"}`))
	f.Add([]byte(`{"tabs":[{"id":"t1","url":"https://example.com/"}],"n":1e400}`))
	f.Add([]byte(`"words"`))
	f.Add([]byte(`{"text":"","observedAt":"2026-12-01T12:04:35Z","n":-0.5e+3}`))
	f.Add([]byte(`{"text":"Observed 12:00:00 UTC.\n\u003c\u003c\u003cpage \ud83d\ude00 é","observedAt":"x","tabs":[{"id":"t1","url":"https://e.com/?a=1\u0026b=2"}],"screenshot":"not base64!"}`))
	f.Add([]byte(`{"text":"a","text":"b"}`))
	f.Add([]byte(` { "text" : "spaced" , "stepsLeft" : 3 , "tabs" : [ ] } `))
	f.Add([]byte(`{"Text":"case","screenshot":"/9j/4AAQ","url":"\u2028"}`))
	f.Add([]byte("{\"text\":\"\xff\xfe bad\"}"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		res := buddimcp.Render(raw)
		if len(res.Content) == 0 {
			t.Fatal("no content")
		}
		if _, ok := res.Content[0].(*mcp.TextContent); !ok {
			t.Fatalf("first content is %T", res.Content[0])
		}
		got, err := json.Marshal(res)
		if err != nil {
			t.Fatalf("result does not encode: %v", err)
		}
		want, err := json.Marshal(buddimcp.RenderDecoded(raw))
		if err != nil {
			t.Fatalf("the decoding renderer's result does not encode: %v", err)
		}
		if g, w := decoded(t, got), decoded(t, want); !reflect.DeepEqual(g, w) {
			t.Fatalf("render gave\n%s\nthe decoding renderer\n%s", got, want)
		}
	})
}

// decoded is the JSON b as values, numbers as they are written.
func decoded(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return v
}
