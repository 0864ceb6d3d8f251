package loadtest

import (
	"math"
	"testing"
)

// The wait to run between two readings is the 99th percentile of the
// waits counted in between (the top of its bucket), not of all since the
// process started; the collector's CPU is the difference too.
func TestGoRuntimeSinceIsOfTheInterval(t *testing.T) {
	bounds := []float64{0, 1e-6, 1e-3, 10e-3, 100e-3, math.Inf(1)}
	then := goRuntime{waits: []uint64{0, 500, 0, 0, 400}, bounds: bounds, gc: 1.5, present: true}
	cases := []struct {
		name  string
		waits []uint64
		want  float64 // ms
		ok    bool
	}{
		{"all short", []uint64{0, 600, 0, 0, 400}, 1, true},
		{"one in a hundred long", []uint64{0, 599, 0, 1, 400}, 1, true},
		{"two in a hundred long", []uint64{0, 598, 0, 2, 400}, 100, true},
		{"the last bucket is open", []uint64{0, 500, 0, 0, 401}, 100, true},
		{"nothing waited", []uint64{0, 500, 0, 0, 400}, 0, false},
	}
	for _, c := range cases {
		now := goRuntime{waits: c.waits, bounds: bounds, gc: 2, present: true}
		wait, gc, ok := now.since(then)
		if ok != c.ok || math.Abs(wait-c.want) > 1e-9 || gc != 0.5 {
			t.Errorf("%s: since = %v ms, gc %v, ok %v; want %v ms, gc 0.5, ok %v", c.name, wait, gc, ok, c.want, c.ok)
		}
	}
	if _, _, ok := (goRuntime{}).since(then); ok {
		t.Error("a missing reading gave a wait")
	}
	if w, _, ok := readGoRuntime().since(readGoRuntime()); ok && w < 0 {
		t.Errorf("two readings of this process gave a negative wait %v", w)
	}
}
