package extwire_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/extwire"
)

// FuzzDecode: whatever the extension's socket carries, the decoder
// answers a message or one sentence with bad_message, never a panic, and
// a message it accepts encodes back to JSON it accepts again.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"type":"hello","nonce":"AAAAAAAAAAAAAAAAAAAAAA==","build":"0.1.0.0"}`,
		`{"type":"hello","nonce":"AAAAAAAAAAAAAAAAAAAAAA==","pair":true,"build":"0.1.0.24"}`,
		`{"type":"token","token":"bx_0123456789abcdef0123"}`,
		`{"type":"pong","seq":3}`,
		`{"type":"reply","id":1,"result":{"tabs":2}}`,
		`{"type":"reply","id":1,"error":{"code":"no_tab","message":"No such tab."}}`,
		`{"type":"abandoned","id":7}`,
		`{"type":"forget"}`,
		`{"type":"event","name":"frame","tab":12,"data":{"data":"/9j/","metadata":{"deviceWidth":800}}}`,
		`{"type":"event","name":"gone","tab":0}`,
		`{"type":"reply","id":1,"result":null}`,
		`{"type":"hello"} {}`,
		`{"type":"pong","seq":1,"extra":1}`,
		`[]`, `null`, ``, `{"type":"command","id":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		in, e := extwire.Decode(b)
		if e != nil {
			if in != nil || e.Code != messages.CodeBadMessage || e.Message == "" || strings.Contains(e.Message, "\n") {
				t.Fatalf("refusal %+v with %v", e, in)
			}
			return
		}
		again, err := json.Marshal(in)
		if err != nil {
			t.Fatalf("an accepted message does not encode: %v", err)
		}
		if _, e := extwire.Decode(again); e != nil {
			t.Fatalf("%s was accepted, but its encoding %s is not: %v", b, again, e)
		}
	})
}
