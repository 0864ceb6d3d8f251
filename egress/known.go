package egress

import (
	"encoding/base64"
	"encoding/hex"
	"slices"
	"strings"
	"sync"
)

// Known is the values no URL the browser opens may carry, whatever they
// look like: the owner's own secrets, and every value masked in what the
// agents read (MaskSecrets found it in a page, so an agent never saw it,
// but a page or a script could still try to send it on). Each value is
// also looked for as base64 (standard and URL alphabets, with and without
// padding) and as hex. Values shorter than KnownMin bytes are not kept:
// they turn up in ordinary URLs. Safe for concurrent use.
type Known struct {
	mu    sync.RWMutex
	owner []string
	seen  []string            // masked values, oldest first, at most KnownSeen
	index map[string][]string // the first KnownMin bytes of each form → the forms
}

// Bounds of Known.
const (
	KnownMin  = 8    // bytes: shorter values are not looked for
	KnownMax  = 512  // bytes: longer values (a whole PEM block) are left to the detectors
	KnownSeen = 1024 // masked values kept; the oldest go first
)

// NewKnown returns an empty set.
func NewKnown() *Known { return &Known{index: map[string][]string{}} }

// SetOwner replaces the owner's secrets.
func (k *Known) SetOwner(values []string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.owner = keepable(values, nil)
	k.reindex()
}

// Saw adds values masked in what an agent read.
func (k *Known) Saw(values []string) {
	if k == nil || len(values) == 0 {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	added := keepable(values, k.seen)
	if len(added) == 0 {
		return
	}
	k.seen = append(k.seen, added...)
	if over := len(k.seen) - KnownSeen; over > 0 {
		k.seen = append([]string(nil), k.seen[over:]...)
	}
	k.reindex()
}

// keepable is values worth looking for, without those in have or repeated.
func keepable(values, have []string) []string {
	seen := make(map[string]bool, len(have))
	for _, v := range have {
		seen[v] = true
	}
	var out []string
	for _, v := range values {
		if len(v) >= KnownMin && len(v) <= KnownMax && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// reindex rebuilds the index of every form of every value; k.mu is held.
func (k *Known) reindex() {
	k.index = make(map[string][]string, 7*(len(k.owner)+len(k.seen)))
	for _, list := range [][]string{k.owner, k.seen} {
		for _, v := range list {
			for _, f := range forms(v) {
				key := f[:KnownMin]
				k.index[key] = append(k.index[key], f)
			}
		}
	}
}

// forms is v as it could be written into a URL.
func forms(v string) []string {
	b := []byte(v)
	std := base64.StdEncoding.EncodeToString(b)
	url := base64.URLEncoding.EncodeToString(b)
	all := []string{v, std, strings.TrimRight(std, "="), url, strings.TrimRight(url, "="),
		hex.EncodeToString(b), strings.ToUpper(hex.EncodeToString(b))}
	slices.Sort(all)
	return slices.Compact(all)
}

// in reports whether any of texts holds a known value in one of its forms.
func (k *Known) in(texts ...string) bool {
	if k == nil {
		return false
	}
	k.mu.RLock()
	defer k.mu.RUnlock()
	if len(k.index) == 0 {
		return false
	}
	for _, t := range texts {
		for i := 0; i+KnownMin <= len(t); i++ {
			for _, f := range k.index[t[i:i+KnownMin]] {
				if strings.HasPrefix(t[i:], f) {
					return true
				}
			}
		}
	}
	return false
}
