//go:build linux

package native_test

import (
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/native"
	"github.com/buddi-dev/buddi/native/linux/linuxtest"
)

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
	linuxtest.Measure(b, func() error {
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
	linuxtest.Measure(b, func() error {
		_, err := tabs.Do(c, &drivers.Action{Kind: drivers.Click, Target: one})
		return err
	})
}
