package metrics

import (
	"math"
	"strconv"
	"sync/atomic"
	"time"
)

// LatencyBuckets are upper bounds in seconds from a millisecond to a minute.
var LatencyBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}

// Histogram counts observations into buckets by upper bound.
type Histogram struct {
	bounds []float64
	counts []atomic.Uint64 // one per bound, then +Inf
	sum    atomic.Uint64   // float64 bits
	n      atomic.Uint64
}

func newHistogram(bounds []float64) *Histogram {
	return &Histogram{bounds: bounds, counts: make([]atomic.Uint64, len(bounds)+1)}
}

// Observe records one value in seconds.
func (h *Histogram) Observe(v float64) {
	i := 0
	for i < len(h.bounds) && v > h.bounds[i] {
		i++
	}
	h.counts[i].Add(1)
	h.n.Add(1)
	for {
		old := h.sum.Load()
		if h.sum.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+v)) {
			return
		}
	}
}

// ObserveDuration records d in seconds.
func (h *Histogram) ObserveDuration(d time.Duration) { h.Observe(d.Seconds()) }

// Count is how many values were observed.
func (h *Histogram) Count() uint64 { return h.n.Load() }

func (h *Histogram) write(w *writer, name string) {
	var cum uint64
	for i, b := range h.bounds {
		cum += h.counts[i].Load()
		w.sample(name+"_bucket", nil, nil, "le", strconv.FormatFloat(b, 'g', -1, 64), float64(cum))
	}
	cum += h.counts[len(h.bounds)].Load()
	w.sample(name+"_bucket", nil, nil, "le", "+Inf", float64(cum))
	w.sample(name+"_sum", nil, nil, "", "", math.Float64frombits(h.sum.Load()))
	w.sample(name+"_count", nil, nil, "", "", float64(cum))
}
