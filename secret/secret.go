// Package secret makes and checks bearer tokens. Tokens are random, shown
// once, and stored only as SHA-256 hashes.
package secret

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
)

// New returns a fresh token with the given prefix and 256 random bits.
func New(prefix string) string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand never fails on Linux; it panics if it cannot
	return prefix + hex.EncodeToString(b)
}

// Hash returns the hex SHA-256 of a token.
func Hash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// Match reports whether token hashes to hash, in constant time.
func Match(token, hash string) bool {
	return subtle.ConstantTimeCompare([]byte(Hash(token)), []byte(hash)) == 1
}
