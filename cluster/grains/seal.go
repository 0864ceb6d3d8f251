package grains

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"strconv"
	"sync"
	"time"
)

// A sealed Registry signs every envelope it encodes and refuses every one
// it decodes that the cluster's key did not sign, that was signed more
// than sealWindow from now, or whose nonce it has decoded before: a host
// that can reach a member's cluster port but does not hold the key (the
// cluster's secret, a file on each member, never in etcd) cannot send an
// agent's call, an owner's control or a placement, and one that captured
// an envelope cannot make it run again. The transport itself is not
// encrypted (TLS with the cluster's certificates is): without it a host
// that sees the traffic can read it.

// sealWindow is how far a seal's time may be from the receiver's clock; a
// nonce is remembered as long as its envelope could still be taken.
const sealWindow = time.Minute

// nonceBytes is how many random bytes each envelope's nonce has.
const nonceBytes = 16

// ErrUnsealed refuses an envelope a sealed Registry cannot verify.
var ErrUnsealed = errors.New("grains: the message is not signed with this cluster's key; is its sender a member of this cluster, given the cluster's secret?")

// ErrReplayed refuses an envelope this member already took: a copy sent
// again, whoever sends it.
var ErrReplayed = errors.New("grains: the message was already received once; a copy of it is not taken again")

// Seal makes r sign what it encodes and verify what it decodes with key;
// call it before the first Request. A key shorter than 16 bytes is refused.
func (r *Registry) Seal(key []byte) error {
	if len(key) < 16 {
		return errors.New("grains: the cluster's key is shorter than 16 bytes; give a random one")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.key = bytes.Clone(key)
	r.seen = &nonces{at: map[[nonceBytes]byte]time.Time{}}
	return nil
}

// logRefusals makes r log every envelope it refuses as forged or replayed.
func (r *Registry) logRefusals(l *slog.Logger) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.log = l
}

func (r *Registry) sealed() ([]byte, *nonces, *slog.Logger) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.key, r.seen, r.log
}

// nonces are the nonces a Registry has taken within the window, each
// until its envelope's time is out of the window.
type nonces struct {
	mu    sync.Mutex
	at    map[[nonceBytes]byte]time.Time // nonce → when it may be forgotten
	sweep time.Time                      // the next sweep of expired nonces
}

// take records n, which expires at until, and reports whether it is new.
func (s *nonces) take(n [nonceBytes]byte, until, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now.After(s.sweep) {
		for k, u := range s.at {
			if now.After(u) {
				delete(s.at, k)
			}
		}
		s.sweep = now.Add(sealWindow / 4)
	}
	if _, ok := s.at[n]; ok {
		return false
	}
	s.at[n] = until
	return true
}

// seal is the line a sealed envelope carries after its name: the time it
// was signed (Unix milliseconds), its nonce in hex and the MAC in hex,
// separated by spaces.
func seal(key []byte, name, body []byte, at time.Time) []byte {
	var n [nonceBytes]byte
	_, _ = rand.Read(n[:])
	return sealWith(key, name, body, at, n)
}

func sealWith(key []byte, name, body []byte, at time.Time, n [nonceBytes]byte) []byte {
	head := strconv.AppendInt(nil, at.UnixMilli(), 10)
	head = hex.AppendEncode(append(head, ' '), n[:])
	return hex.AppendEncode(append(head, ' '), mac(key, name, head, body))
}

// mac signs the name, the time and nonce (head), and the body.
func mac(key, name, head, body []byte) []byte {
	h := hmac.New(sha256.New, key)
	h.Write(name)
	h.Write([]byte{'\n'})
	h.Write(head)
	h.Write([]byte{'\n'})
	h.Write(body)
	return h.Sum(nil)
}

// unseal checks a sealed envelope's seal line and returns its body; seen,
// when not nil, refuses a nonce it has taken before.
func unseal(key, name, rest []byte, now time.Time, seen *nonces) ([]byte, error) {
	line, body, ok := bytes.Cut(rest, []byte{'\n'})
	if !ok {
		return nil, ErrUnsealed
	}
	i := bytes.LastIndexByte(line, ' ')
	if i < 0 {
		return nil, ErrUnsealed
	}
	head, sum := line[:i], line[i+1:]
	ms, nonce, ok := bytes.Cut(head, []byte{' '})
	if !ok {
		return nil, ErrUnsealed
	}
	at, err := strconv.ParseInt(string(ms), 10, 64)
	if err != nil {
		return nil, ErrUnsealed
	}
	var n [nonceBytes]byte
	if hex.DecodedLen(len(nonce)) != nonceBytes {
		return nil, ErrUnsealed
	}
	if _, err := hex.Decode(n[:], nonce); err != nil {
		return nil, ErrUnsealed
	}
	got := make([]byte, sha256.Size)
	if hex.DecodedLen(len(sum)) != sha256.Size {
		return nil, ErrUnsealed
	}
	if _, err := hex.Decode(got, sum); err != nil || !hmac.Equal(got, mac(key, name, head, body)) {
		return nil, ErrUnsealed
	}
	signed := time.UnixMilli(at)
	if d := now.Sub(signed); d > sealWindow || d < -sealWindow {
		return nil, errors.New("grains: the message was signed more than a minute from this member's time; check the members' clocks")
	}
	if seen != nil && !seen.take(n, signed.Add(sealWindow), now) {
		return nil, ErrReplayed
	}
	return body, nil
}
