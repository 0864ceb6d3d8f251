package loadtest

import (
	"math"
	"strings"
	"testing"
	"time"
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
	if r := readGoRuntime(); !r.present || r.assist < 0 || r.assist > r.gc {
		t.Errorf("this process's collector: %v CPU seconds, %v of them assists (read %v)", r.gc, r.assist, r.present)
	}
}

// The acts of the seconds with a collection and of the others are counted
// apart, each with its own percentiles; a set no second fell in is absent.
func TestSplitsKeepTheSecondsWithACollectionApart(t *testing.T) {
	var tl sampler
	if with, without := tl.splits(); with != nil || without != nil {
		t.Fatalf("an empty run split into %+v and %+v", with, without)
	}
	var quick, slow hist
	for range 100 {
		quick.record(time.Millisecond)
	}
	for range 98 {
		slow.record(time.Millisecond)
	}
	slow.record(40 * time.Millisecond)
	slow.record(40 * time.Millisecond)
	tl.split[calm][0].add(quick.counts64(), 1)
	tl.split[calm][0].add(quick.counts64(), 1)
	tl.split[collecting][0].add(slow.counts64(), 1)
	with, without := tl.splits()
	if with == nil || with.Acts != 100 || with.Seconds != 1 || with.P99 < 40 || with.P50 > 1.1 {
		t.Fatalf("the second with a collection: %+v, want 100 acts in 1 s, p99 ≥ 40 ms", with)
	}
	if without == nil || without.Acts != 200 || without.Seconds != 2 || without.P99 > 1.1 {
		t.Fatalf("the seconds without: %+v, want 200 acts in 2 s, p99 ≈ 1 ms", without)
	}
}

// The split counts only the intervals that began after the first quarter,
// as actsAfterFirstQuarter does: the warm-up's slow seconds are left out
// of both sets.
func TestSplitsLeaveTheWarmUpOut(t *testing.T) {
	var tl sampler
	var slow, quick hist
	slow.record(90 * time.Millisecond)
	quick.record(time.Millisecond)
	tl.tally(slow.counts64(), 1, 0, false)
	tl.tally(slow.counts64(), 1, 0.01, true)
	if with, without := tl.splits(); with != nil || without != nil {
		t.Fatalf("the warm-up's seconds were counted: %+v and %+v", with, without)
	}
	tl.steady = true
	tl.tally(quick.counts64(), 1, 0, false)
	tl.tally(slow.counts64(), 1, 0.01, false)
	with, without := tl.splits()
	if without == nil || without.Acts != 1 || without.P99 > 1.1 {
		t.Fatalf("the steady second without a collection: %+v, want 1 act of about 1 ms", without)
	}
	if with == nil || with.Acts != 1 || with.P99 < 90 {
		t.Fatalf("the steady second with a collection: %+v, want 1 act of at least 90 ms", with)
	}
}

// The seconds in which the owner's Stop of all sessions was answered are
// kept apart inside each set, and the table says them; a run with no
// Stop has none.
func TestSplitsKeepTheSecondsOfAStopApart(t *testing.T) {
	second := func(slow time.Duration) []int64 {
		var h hist
		for range 98 {
			h.record(time.Millisecond)
		}
		h.record(slow)
		h.record(slow)
		return h.counts64()
	}
	tl := sampler{steady: true}
	tl.tally(second(time.Millisecond), 1, 0, false)
	if with, without := tl.splits(); with != nil || without == nil || without.Stop != nil {
		t.Fatalf("a run with no Stop and no collection split into %+v and %+v", with, without)
	}
	tl.tally(second(time.Millisecond), 1, 0, false)
	tl.tally(second(40*time.Millisecond), 1, 0, true)
	tl.tally(second(20*time.Millisecond), 1, 0.01, false)
	tl.tally(second(90*time.Millisecond), 1, 0.01, true)
	with, without := tl.splits()
	if without == nil || without.Seconds != 3 || without.Acts != 300 || without.Stop == nil ||
		without.Stop.Seconds != 1 || without.Stop.Acts != 100 || without.Stop.P99 < 40 || without.P99 > 1.1 {
		t.Fatalf("the seconds without a collection: %+v (Stop %+v), want 3 s of 300 acts at about 1 ms, 1 s of them with a Stop and a p99 of at least 40 ms", without, without.Stop)
	}
	if with == nil || with.Seconds != 2 || with.Acts != 200 || with.Stop == nil ||
		with.Stop.Seconds != 1 || with.Stop.Acts != 100 || with.Stop.P99 < 90 {
		t.Fatalf("the seconds with a collection: %+v (Stop %+v), want 2 s of 200 acts, 1 s of them with a Stop and a p99 of at least 90 ms", with, with.Stop)
	}
	r := Report{RunWaitP99: 1, CPU: 1, WithCollection: with, WithoutCollection: without}
	var b strings.Builder
	r.waitLine(&b)
	if !strings.Contains(b.String(), "Stop of all sessions was answered: with a collection, 1 s, p99 ") {
		t.Fatalf("the table does not give the seconds of a Stop:\n%s", b.String())
	}
	with.Stop = nil
	b.Reset()
	r.waitLine(&b)
	if !strings.Contains(b.String(), "answered: with a collection, none; without, 1 s, p99 ") {
		t.Fatalf("the table does not say there was no Stop in the seconds with a collection:\n%s", b.String())
	}
}
