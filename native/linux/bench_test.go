//go:build linux

package linux_test

import (
	"encoding/json"
	"testing"

	"github.com/buddi-dev/buddi/native/linux/linuxtest"
	"github.com/buddi-dev/buddi/native/protocol"
)

// BenchmarkObserve is one observe of gnome-calculator through the helper
// process, as the Client runs it: process start, X and bus connections,
// the tree, the screenshot, the JSON both ways.
func BenchmarkObserve(b *testing.B) {
	s := newSession(b)
	s.openCalculator()
	o := s.observeUntil(func(*protocol.Observation) bool { return true })
	nodes, _ := json.Marshal(o.Nodes)
	c := ctx(b)
	linuxtest.Measure(b, func() error {
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
	linuxtest.Measure(b, func() error {
		_, err := s.c.Click(c, args)
		return err
	})
}
