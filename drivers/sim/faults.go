package sim

import (
	"hash/fnv"
	"math/rand/v2"
)

// newDice seeds a conversation's fault PRNG from the driver seed and the
// conversation name, so a run replays. It is nil when no fault is configured.
func newDice(cfg Config, conversation string) *rand.Rand {
	if !cfg.Faults.any() {
		return nil
	}
	h := fnv.New64a()
	h.Write([]byte(conversation))
	return rand.New(rand.NewPCG(uint64(cfg.Seed), h.Sum64()))
}

// roll draws a fault with probability p. The caller holds t.mu.
func (t *Tabs) roll(p float64) bool {
	switch {
	case p <= 0:
		return false
	case p >= 1:
		return true
	}
	return t.dice.Float64() < p
}
