package shared

import (
	"bytes"
	"testing"
)

// The cost signing adds to each write and verifying to each read of a
// record of the owner's authority, without etcd's round trip (see
// BenchmarkSetStop for that): an agent's record is about 300 bytes.
func BenchmarkSignRecord(b *testing.B) {
	s := benchStore(b)
	v := bytes.Repeat([]byte("a"), 300)
	b.ReportAllocs()
	for b.Loop() {
		s.sign("agents/ada", v)
	}
}

func BenchmarkVerifyRecord(b *testing.B) {
	s := benchStore(b)
	stored := s.sign("agents/ada", bytes.Repeat([]byte("a"), 300))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.verify("agents/ada", stored, 1); err != nil {
			b.Fatal(err)
		}
	}
}

func benchStore(b *testing.B) *Store {
	secret, err := NewSecret(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		b.Fatal(err)
	}
	return &Store{secret: secret, forged: map[string]int64{}}
}
