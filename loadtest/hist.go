package loadtest

import (
	"math/bits"
	"sync/atomic"
	"time"
)

// hist is a lock-free latency histogram over microseconds with log-linear
// buckets: 32 per power of two, so a reported percentile is within about 3 %
// of the true value and never below it. Its size is fixed, so recording
// never allocates and memory does not grow with the run.
type hist struct {
	counts [histBuckets]atomic.Int64
	n      atomic.Int64
	max    atomic.Int64 // microseconds
}

const (
	subBits     = 5
	subBuckets  = 1 << subBits
	histBuckets = 40 * subBuckets // up to 2^40 µs, far beyond any deadline
)

func bucketOf(us uint64) int {
	if us < subBuckets {
		return int(us)
	}
	e := bits.Len64(us) - subBits - 1
	i := (e+1)*subBuckets + int((us>>e)&(subBuckets-1))
	return min(i, histBuckets-1)
}

// upper is the largest value bucket i holds.
func upper(i int) uint64 {
	if i < subBuckets {
		return uint64(i)
	}
	e := i/subBuckets - 1
	return (uint64(subBuckets+i%subBuckets+1) << e) - 1
}

func (h *hist) record(d time.Duration) {
	us := max(d.Microseconds(), 0)
	h.counts[bucketOf(uint64(us))].Add(1)
	h.n.Add(1)
	for {
		m := h.max.Load()
		if us <= m || h.max.CompareAndSwap(m, us) {
			return
		}
	}
}

// quantile is the q-quantile (0 < q ≤ 1), rounded up to its bucket's top.
func (h *hist) quantile(q float64) time.Duration {
	n := h.n.Load()
	if n == 0 {
		return 0
	}
	rank := int64(q*float64(n) + 0.999999)
	var seen int64
	for i := range h.counts {
		seen += h.counts[i].Load()
		if seen >= rank {
			return min(time.Duration(upper(i))*time.Microsecond, h.maximum())
		}
	}
	return h.maximum()
}

func (h *hist) maximum() time.Duration { return time.Duration(h.max.Load()) * time.Microsecond }

// Summary is one latency distribution in the report.
type Summary struct {
	Count int64   `json:"count"`
	P50   float64 `json:"p50Ms"`
	P90   float64 `json:"p90Ms"`
	P99   float64 `json:"p99Ms"`
	Max   float64 `json:"maxMs"`
}

func (h *hist) summary() Summary {
	return Summary{Count: h.n.Load(), P50: ms(h.quantile(0.5)), P90: ms(h.quantile(0.9)),
		P99: ms(h.quantile(0.99)), Max: ms(h.maximum())}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
