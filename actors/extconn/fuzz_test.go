package extconn_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/messages/extwire"
)

// FuzzHandshake feeds a paired buddi's fresh connection any sequence of
// messages (split at newlines). Without the token, which the fuzzer cannot
// know, buddi never says ready and never sends a command, whatever comes.
func FuzzHandshake(f *testing.F) {
	for _, s := range []string{
		`{"type":"hello","nonce":"AAAAAAAAAAAAAAAAAAAAAA==","build":"0.1.0.0"}` + "\n" + `{"type":"token","token":"bx_0000000000000000"}`,
		`{"type":"reply","id":1,"result":1}`,
		`{"type":"hello","nonce":"AAAAAAAAAAAAAAAAAAAAAA==","pair":true,"build":"1"}` + "\n" + `{"type":"pong","seq":1}`,
		`{"type":"token","token":"bx_0000000000000000"}` + "\n" + `{"type":"hello","nonce":"AAAAAAAAAAAAAAAAAAAAAA==","build":"1"}`,
		`{"type":"forget"}`, `{"type":"abandoned","id":1}`, `not json`,
		`{"type":"event","name":"frame","tab":3,"data":{}}`,
	} {
		f.Add([]byte(s))
	}
	b := start(f)
	b.pair(f, idA)
	f.Fuzz(func(t *testing.T, data []byte) {
		e := b.open(t, idA)
		for _, line := range bytes.Split(data, []byte("\n")) {
			e.raw(string(line))
		}
		e.link.Gone()
		deadline := time.After(200 * time.Millisecond)
		for {
			select {
			case m := <-e.w.out:
				if m.Type == extwire.ReadyType || m.Type == extwire.CommandType || m.Type == extwire.PairedType {
					t.Fatalf("buddi sent %s to a connection that never gave the token", m.Type)
				}
			case <-deadline:
				return
			}
		}
	})
}
