// Package secret makes and checks bearer tokens. Tokens are random, shown
// once, and stored only as SHA-256 hashes.
package secret

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"sync/atomic"
)

// New returns a fresh token with the given prefix and 256 random bits.
func New(prefix string) string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand never fails on Linux; it panics if it cannot
	return prefix + hex.EncodeToString(b)
}

// Hash returns the hex SHA-256 of a token.
func Hash(token string) string { return hexOf(sha256.Sum256([]byte(token))) }

// HashBytes is Hash of a token still in the bytes it arrived in (a
// request's header). An agent sends the same token with every call, so
// the hex of a sum made lately is given again rather than made anew: the
// table keeps sums and their hex, never a token.
func HashBytes(token []byte) string {
	sum := sha256.Sum256(token)
	slot := &hashed[sum[0]]
	if h := slot.Load(); h != nil && h.sum == sum {
		return h.hex
	}
	h := &hexSum{sum: sum, hex: hexOf(sum)}
	slot.Store(h)
	return h.hex
}

// hexSum is a sum HashBytes made and its hex.
type hexSum struct {
	sum [sha256.Size]byte
	hex string
}

// hashed holds the latest sum HashBytes made for each value of a sum's
// first byte: the tokens of a few hundred agents mostly keep their slot.
var hashed [256]atomic.Pointer[hexSum]

// hexOf is sum in hex, made in one allocation.
func hexOf(sum [sha256.Size]byte) string {
	var b [2 * sha256.Size]byte
	hex.Encode(b[:], sum[:])
	return string(b[:])
}

// Match reports whether token hashes to hash, in constant time.
func Match(token, hash string) bool {
	return subtle.ConstantTimeCompare([]byte(Hash(token)), []byte(hash)) == 1
}
