//go:build linux

package linux_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/native/protocol"
)

// measure runs call b.N times and reports the median and the 99th
// percentile of its durations.
func measure(b *testing.B, call func() error) {
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

// BenchmarkObserve is one observe of gnome-calculator through the helper
// process, as the Client runs it: process start, X and bus connections,
// the tree, the screenshot, the JSON both ways.
func BenchmarkObserve(b *testing.B) {
	s := newSession(b)
	s.openCalculator()
	o := s.observeUntil(func(*protocol.Observation) bool { return true })
	nodes, _ := json.Marshal(o.Nodes)
	c := ctx(b)
	measure(b, func() error {
		_, err := s.c.Observe(c, calculator)
		return err
	})
	b.ReportMetric(float64(len(nodes)), "tree-bytes")
	b.ReportMetric(float64(len(o.Nodes)), "refs")
	b.ReportMetric(float64(len(o.Screenshot.Data)), "png-bytes")
}

// BenchmarkClickByRef is one click by ref (the button's own action) with
// its checks: focused window, fingerprint, the element's ancestry.
func BenchmarkClickByRef(b *testing.B) {
	s := newSession(b)
	s.openCalculator()
	o := s.observeUntil(func(*protocol.Observation) bool { return true })
	args := protocol.ClickArgs{Guard: guard(o), Element: target(find(o, "button", "1"))}
	c := ctx(b)
	measure(b, func() error {
		_, err := s.c.Click(c, args)
		return err
	})
}
