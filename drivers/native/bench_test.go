//go:build linux

package native_test

import (
	"slices"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/native"
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

func benchDesktop(b *testing.B) (drivers.Tabs, *drivers.Observation) {
	s := newDesktop(b, native.Apps{Browser: "google-chrome", Allowed: []string{realCalc}})
	tabs, err := s.drv.Open(ctx(b), "bench")
	if err != nil {
		b.Fatal(err)
	}
	return tabs, s.open(tabs)
}

// BenchmarkDriverObserve is one observation of gnome-calculator through the
// driver: the helper process, its tree and screenshot, and the driver's
// rendering of the tree with its refs.
func BenchmarkDriverObserve(b *testing.B) {
	tabs, o := benchDesktop(b)
	c := ctx(b)
	measure(b, func() error {
		_, err := tabs.Observe(c, drivers.ObserveOptions{Screenshot: true})
		return err
	})
	b.ReportMetric(float64(len(o.Refs)), "refs")
	b.ReportMetric(float64(len(o.Tree)), "tree-bytes")
	b.ReportMetric(float64(len(o.Screenshot)), "png-bytes")
}

// BenchmarkDriverClickByRef is one click by ref through the driver, with
// the helper's checks of window, focus and target.
func BenchmarkDriverClickByRef(b *testing.B) {
	tabs, o := benchDesktop(b)
	one := button(o, "1")
	c := ctx(b)
	measure(b, func() error {
		_, err := tabs.Do(c, &drivers.Action{Kind: drivers.Click, Target: one})
		return err
	})
}
