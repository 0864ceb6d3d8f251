package grains

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"time"
)

// A sealed Registry signs every envelope it encodes and refuses every one
// it decodes that the cluster's key did not sign, or that was signed more
// than sealWindow from now: a host that can reach a member's cluster port
// but does not hold the key (kept in etcd) cannot send an agent's call or
// an owner's control. The transport itself is not encrypted, so a host
// that sees the traffic can read it and could replay an envelope within
// the window.

// sealWindow is how far a seal's time may be from the receiver's clock.
const sealWindow = time.Minute

// ErrUnsealed refuses an envelope a sealed Registry cannot verify.
var ErrUnsealed = errors.New("grains: the message is not signed with this cluster's key; is its sender a member of this cluster?")

// Seal makes r sign what it encodes and verify what it decodes with key;
// call it before the first Request. An empty key is refused.
func (r *Registry) Seal(key []byte) error {
	if len(key) < 16 {
		return errors.New("grains: the cluster's key is shorter than 16 bytes; give a random one")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.key = bytes.Clone(key)
	return nil
}

func (r *Registry) sealKey() []byte {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.key
}

// seal is the line a sealed envelope carries after its name: the time it
// was signed (Unix milliseconds), a space, and the MAC in hex.
func seal(key []byte, name, body []byte, at time.Time) []byte {
	ms := strconv.FormatInt(at.UnixMilli(), 10)
	return append(append([]byte(ms), ' '), hex.EncodeToString(mac(key, name, ms, body))...)
}

func mac(key, name []byte, ms string, body []byte) []byte {
	h := hmac.New(sha256.New, key)
	h.Write(name)
	h.Write([]byte{'\n'})
	h.Write([]byte(ms))
	h.Write([]byte{'\n'})
	h.Write(body)
	return h.Sum(nil)
}

// unseal checks a sealed envelope's seal line and returns its body.
func unseal(key, name, rest []byte, now time.Time) ([]byte, error) {
	line, body, ok := bytes.Cut(rest, []byte{'\n'})
	if !ok {
		return nil, ErrUnsealed
	}
	ms, sum, ok := bytes.Cut(line, []byte{' '})
	if !ok {
		return nil, ErrUnsealed
	}
	at, err := strconv.ParseInt(string(ms), 10, 64)
	if err != nil {
		return nil, ErrUnsealed
	}
	got, err := hex.DecodeString(string(sum))
	if err != nil || !hmac.Equal(got, mac(key, name, string(ms), body)) {
		return nil, ErrUnsealed
	}
	if d := now.Sub(time.UnixMilli(at)); d > sealWindow || d < -sealWindow {
		return nil, errors.New("grains: the message was signed more than a minute from this member's time; check the members' clocks")
	}
	return body, nil
}
