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
	"time"
)

// A sealed Registry signs every envelope it encodes and refuses every one
// it decodes that the cluster's key did not sign, that was signed more
// than sealWindow from now, or whose nonce it has seen within that
// window: a host that can reach a member's cluster port but does not hold
// the cluster's secret cannot send an agent's call or an owner's control,
// and one that captured an envelope cannot have it run again. The
// transport itself is encrypted only with the cluster's TLS, so without it
// a host that sees the traffic can read it.

// sealWindow is how far a seal's time may be from the receiver's clock.
const sealWindow = time.Minute

// nonceSize is the bytes of randomness each envelope carries under its MAC.
const nonceSize = 16

// ErrUnsealed refuses an envelope a sealed Registry cannot verify.
var ErrUnsealed = errors.New("grains: the message is not signed with this cluster's key; is its sender a member of this cluster?")

// ErrReplayed refuses a second copy of an envelope this member has already
// taken: someone sent a captured message again.
var ErrReplayed = errors.New("grains: the message was received before (its nonce is spent); a copy sent again is refused")

// Seal makes r sign what it encodes and verify what it decodes with key;
// call it before the first Request. A key shorter than 16 bytes is
// refused. log, when not nil, hears of each replay refused, once.
func (r *Registry) Seal(key []byte, log *slog.Logger) error {
	if len(key) < 16 {
		return errors.New("grains: the cluster's key is shorter than 16 bytes; give a random one")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.key = bytes.Clone(key)
	r.spent = newNonces(maxNonces)
	r.log = log
	return nil
}

func (r *Registry) sealKey() []byte {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.key
}

// seal is the line a sealed envelope carries after its name: the time it
// was signed (Unix milliseconds), a fresh nonce in hex and the MAC in hex,
// separated by spaces.
func seal(key []byte, name, body []byte, at time.Time) []byte {
	var n [nonceSize]byte
	_, _ = rand.Read(n[:])
	return sealWith(key, name, body, at, n)
}

func sealWith(key []byte, name, body []byte, at time.Time, n [nonceSize]byte) []byte {
	ms := strconv.FormatInt(at.UnixMilli(), 10)
	nonce := hex.EncodeToString(n[:])
	line := append([]byte(ms), ' ')
	line = append(line, nonce...)
	line = append(line, ' ')
	return append(line, hex.EncodeToString(mac(key, name, ms, nonce, body))...)
}

func mac(key, name []byte, ms, nonce string, body []byte) []byte {
	h := hmac.New(sha256.New, key)
	h.Write(name)
	h.Write([]byte{'\n'})
	h.Write([]byte(ms))
	h.Write([]byte{'\n'})
	h.Write([]byte(nonce))
	h.Write([]byte{'\n'})
	h.Write(body)
	return h.Sum(nil)
}

// opened is what a verified seal line says.
type opened struct {
	at    time.Time
	nonce [nonceSize]byte
	body  []byte
}

// unseal checks a sealed envelope's seal line and returns its body, time
// and nonce; whether the nonce is spent is the Registry's to check.
func unseal(key, name, rest []byte, now time.Time) (opened, error) {
	line, body, ok := bytes.Cut(rest, []byte{'\n'})
	if !ok {
		return opened{}, ErrUnsealed
	}
	parts := bytes.Split(line, []byte{' '})
	if len(parts) != 3 {
		return opened{}, ErrUnsealed
	}
	ms, nonce, sum := parts[0], parts[1], parts[2]
	at, err := strconv.ParseInt(string(ms), 10, 64)
	if err != nil {
		return opened{}, ErrUnsealed
	}
	var n [nonceSize]byte
	raw, err := hex.DecodeString(string(nonce))
	if err != nil || len(raw) != nonceSize {
		return opened{}, ErrUnsealed
	}
	copy(n[:], raw)
	got, err := hex.DecodeString(string(sum))
	if err != nil || !hmac.Equal(got, mac(key, name, string(ms), string(nonce), body)) {
		return opened{}, ErrUnsealed
	}
	when := time.UnixMilli(at)
	if d := now.Sub(when); d > sealWindow || d < -sealWindow {
		return opened{}, errors.New("grains: the message was signed more than a minute from this member's time; check the members' clocks")
	}
	return opened{at: when, nonce: n, body: body}, nil
}

// unsealOnce unseals an envelope and spends its nonce: a second copy is
// refused with ErrReplayed, and logged the first time it comes.
func (r *Registry) unsealOnce(key, name, rest []byte, now time.Time) ([]byte, error) {
	s, err := unseal(key, name, rest, now)
	if err != nil {
		return nil, err
	}
	r.mu.RLock()
	spent, log := r.spent, r.log
	r.mu.RUnlock()
	switch spent.spend(s.nonce, s.at.Add(sealWindow), now) {
	case fresh:
		return s.body, nil
	case noncesFull:
		log.Warn("grains: a message from another member is refused: this member holds as many unspent nonces as it keeps; it refuses messages until the oldest expire", "type", string(name))
		return nil, errNoncesFull
	case replayedFirst:
		log.Warn("grains: a copy of a message this member already took is refused (a captured envelope sent again)", "type", string(name), "signed", s.at)
	}
	return nil, ErrReplayed
}

var errNoncesFull = errors.New("grains: this member takes no more messages this minute (its memory of spent nonces is full); try again shortly")
