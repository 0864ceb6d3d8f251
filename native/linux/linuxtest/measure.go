package linuxtest

import (
	"slices"
	"testing"
	"time"
)

// Measure runs call b.N times and reports the median and the 99th
// percentile of its durations, for the desktop benchmarks.
func Measure(b *testing.B, call func() error) {
	b.Helper()
	samples := make([]time.Duration, 0, b.N)
	for b.Loop() {
		start := time.Now()
		if err := call(); err != nil {
			b.Fatal(err)
		}
		samples = append(samples, time.Since(start))
	}
	slices.Sort(samples)
	at := func(q float64) float64 {
		return float64(samples[min(len(samples)-1, int(q*float64(len(samples))))]) / float64(time.Millisecond)
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
}
