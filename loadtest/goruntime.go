package loadtest

import (
	"math"
	"runtime/metrics"
)

// goRuntime is one reading of what the Go runtime counts of this process
// (the harness, and buddi when it runs in process): how long goroutines
// waited to run once they could, and the CPU its collector used. Two
// readings tell whether an act's slow answer was a wait for a core: the
// harness measures latency from its own side, so its goroutines' waits
// are in every figure it gives. What was allocated, and how often the
// collector ran, say what made it run. Its assists are the part of its
// work done by goroutines that allocated while it marked, in the middle
// of their own work: in a load test nearly every goroutine that allocates
// during a mark assists (a trace of 10,000 acts/s showed some 290 per
// collection), and they, not the collector's own worker, are what holds
// the acts answered then.
type goRuntime struct {
	waits   []uint64  // cumulative counts per bucket of /sched/latencies
	bounds  []float64 // the buckets' bounds in seconds (len(waits)+1)
	gc      float64   // cumulative CPU seconds of the collector
	assist  float64   // of which goroutines spent assisting it as they allocated
	alloc   uint64    // cumulative bytes allocated on the heap
	cycles  uint64    // collections finished
	present bool
}

var goRuntimeMetrics = []string{"/sched/latencies:seconds", "/cpu/classes/gc/total:cpu-seconds",
	"/gc/heap/allocs:bytes", "/gc/cycles/total:gc-cycles", "/cpu/classes/gc/mark/assist:cpu-seconds"}

// readGoRuntime reads the runtime's counts now.
func readGoRuntime() goRuntime {
	s := make([]metrics.Sample, len(goRuntimeMetrics))
	for i, n := range goRuntimeMetrics {
		s[i].Name = n
	}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64Histogram || s[1].Value.Kind() != metrics.KindFloat64 ||
		s[2].Value.Kind() != metrics.KindUint64 || s[3].Value.Kind() != metrics.KindUint64 ||
		s[4].Value.Kind() != metrics.KindFloat64 {
		return goRuntime{}
	}
	h := s[0].Value.Float64Histogram()
	return goRuntime{waits: append([]uint64(nil), h.Counts...), bounds: h.Buckets, gc: s[1].Value.Float64(),
		alloc: s[2].Value.Uint64(), cycles: s[3].Value.Uint64(), assist: s[4].Value.Float64(), present: true}
}

// since is what happened between then and now: the 99th percentile of
// the goroutines' waits to run, in milliseconds (the top of its bucket),
// and the collector's CPU seconds. ok is false when either reading is
// missing or nothing waited.
func (now goRuntime) since(then goRuntime) (waitP99 float64, gc float64, ok bool) {
	if !now.present || !then.present || len(now.waits) != len(then.waits) {
		return 0, 0, false
	}
	var n uint64
	for i := range now.waits {
		n += now.waits[i] - then.waits[i]
	}
	if n == 0 {
		return 0, now.gc - then.gc, false
	}
	rank := uint64(math.Ceil(0.99 * float64(n)))
	var seen uint64
	for i := range now.waits {
		if seen += now.waits[i] - then.waits[i]; seen >= rank {
			top := now.bounds[i+1]
			if math.IsInf(top, 1) {
				top = now.bounds[i]
			}
			return top * 1000, now.gc - then.gc, true
		}
	}
	return 0, now.gc - then.gc, false
}
