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
	if t.dice == nil { // the faults were set after the conversation opened
		cfg := t.d.cfg
		cfg.Faults = Faults{ObserveFail: p}
		t.dice = newDice(cfg, t.conv)
	}
	return t.dice.Float64() < p
}

// faults are the driver's fault probabilities now.
func (d *Driver) faults() Faults { return *d.fault.Load() }

// SetFaults changes how the driver misbehaves from its next call on, so a
// test can bring a page to a state first and fail it afterwards.
func (d *Driver) SetFaults(f Faults) { d.fault.Store(&f) }
