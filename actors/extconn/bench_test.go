package extconn_test

import (
	"testing"

	"github.com/buddi-dev/buddi/messages/extwire"
)

// BenchmarkHandshake measures one reconnection of a paired extension
// through the actor: open, hello, buddi's proof (checked), the token,
// ready. The socket is the test's wire, so this is buddi's share.
func BenchmarkHandshake(b *testing.B) {
	bd := start(b)
	_, token := bd.pair(b, idA)
	b.ResetTimer()
	for b.Loop() {
		e := bd.open(b, idA)
		e.proveWith(token)
	}
	b.StopTimer()
	_ = extwire.ReadyType
}
