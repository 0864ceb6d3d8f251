package shared

import (
	"bytes"
	"testing"
)

// BenchmarkSignVerify measures signing one record and verifying it, the
// cost each write and each read of a signed record adds.
func BenchmarkSignVerify(b *testing.B) {
	secret, _ := NewSecret(bytes.Repeat([]byte{7}, SecretSize))
	s := &Store{signKey: secret.RecordKey()}
	v := []byte(`{"name":"agent-1","id":"a1","tokenHash":"0123456789abcdef0123456789abcdef","grants":["act"]}`)
	for b.Loop() {
		if _, err := s.verify("/buddi/agents/agent-1", s.sign("/buddi/agents/agent-1", 7, false, v)); err != nil {
			b.Fatal(err)
		}
	}
}
