package metrics

import (
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Counter only grows.
type Counter struct{ v atomic.Uint64 }

// Inc adds one.
func (c *Counter) Inc() { c.v.Add(1) }

// Add adds n.
func (c *Counter) Add(n uint64) { c.v.Add(n) }

// Value is the count so far.
func (c *Counter) Value() uint64 { return c.v.Load() }

// CounterVec is a counter per set of label values.
type CounterVec struct {
	labels []string
	mu     sync.Mutex
	m      map[string]*counterEntry
}

type counterEntry struct {
	vals []string
	c    Counter
}

// With returns the counter of the label values, in the order of the labels.
func (v *CounterVec) With(vals ...string) *Counter {
	k := joinKey(vals)
	v.mu.Lock()
	defer v.mu.Unlock()
	e := v.m[k]
	if e == nil {
		e = &counterEntry{vals: append([]string(nil), vals...)}
		v.m[k] = e
	}
	return &e.c
}

func (v *CounterVec) write(w *writer, name string) {
	v.mu.Lock()
	keys := make([]string, 0, len(v.m))
	for k := range v.m {
		keys = append(keys, k)
	}
	entries := make([]*counterEntry, 0, len(keys))
	sort.Strings(keys)
	for _, k := range keys {
		entries = append(entries, v.m[k])
	}
	v.mu.Unlock()
	for _, e := range entries {
		w.sample(name, v.labels, e.vals, "", "", float64(e.c.Value()))
	}
}

func joinKey(vals []string) string { return strings.Join(vals, "\xff") }
