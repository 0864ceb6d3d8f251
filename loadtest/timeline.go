package loadtest

import (
	"runtime/metrics"
	"sync"
	"time"

	buddimetrics "github.com/buddi-dev/buddi/metrics"
)

// Sample is one second of a run: what was answered in it and what the
// process used.
type Sample struct {
	At   float64 `json:"at"`   // seconds since the run started, at the interval's end
	Acts float64 `json:"acts"` // acts answered per second
	P50  float64 `json:"p50Ms"`
	P90  float64 `json:"p90Ms"`
	P99  float64 `json:"p99Ms"`
	// Actions are the acts of each action answered in the interval.
	Actions map[string]Point `json:"actions,omitempty"`
	// Faults are the faults injected in the interval: each owner control
	// (with its latency), and the sessions restarted after a crash.
	Faults map[string]Point `json:"faults,omitempty"`
	CPU    float64          `json:"cpuCores"`  // CPU time per second of wall time, this process (harness and in-process daemon)
	Heap   uint64           `json:"heapBytes"` // live heap objects of this process
	// Server is the targets' own processes' CPU time per second of wall
	// time, from their /metrics; absent in process.
	Server float64 `json:"serverCpuCores,omitempty"`
	// Wait is the 99th percentile of this process's goroutines' waits to
	// run in the interval; GC its collector's CPU per second of wall time.
	Wait float64 `json:"runWaitP99Ms,omitempty"`
	GC   float64 `json:"gcCores,omitempty"`
	// Others is the cores the host's other processes kept busy (host.go),
	// Steal those the hypervisor gave to other machines.
	Others float64 `json:"otherCores,omitempty"`
	Steal  float64 `json:"stealCores,omitempty"`
}

// Point is one label's interval: how many per second, and their p99.
type Point struct {
	Rate float64 `json:"perSecond"`
	P99  float64 `json:"p99Ms,omitempty"`
}

// timeline samples a run once a second.
type sampler struct {
	mu      sync.Mutex
	samples []Sample
	prev    map[*hist][]int64
	cpu     time.Duration
	at      time.Time
	crashes int64
	// srv is the targets' CPU seconds at the interval's start; srvOK
	// whether it was read (never in process; no longer once a read failed).
	srv   float64
	srvOK bool
	rt    goRuntime // the Go runtime's counts at the interval's start
	// split is the acts answered in the intervals in which the collector
	// ran, and in the others, of the intervals that began after the first
	// quarter (steady): the acts actsAfterFirstQuarter counts.
	split  [2][2]splitCounts // [calm or collecting][without or with a Stop]
	steady bool
	// host is the host's CPU time at the interval's start; onHost whether
	// the targets' CPU is part of it (in process, or at loopback).
	host     hostCPU
	onHost   bool
	hostLoad hostTally
}

// splitCounts are the latencies of acts answered in a set of intervals.
type splitCounts struct {
	counts []int64
	secs   float64
}

// The sets of intervals: those the collector ran in, and the others; each
// is kept in two, by whether the owner's Stop of all sessions was answered
// in the interval (a thousand sessions stopping at once is a burst of work
// of its own, and when it meets a collection the two make the run's worst
// seconds).
const (
	calm = iota
	collecting
)

func (c *splitCounts) add(counts []int64, secs float64) {
	if c.counts == nil {
		c.counts = make([]int64, len(counts))
	}
	for i, n := range counts {
		c.counts[i] += n
	}
	c.secs += secs
}

// Split is the acts answered in the seconds in which the collector ran,
// or in the others. Stop is the part of those seconds in which the owner's
// Stop of all sessions was answered; absent when none was.
type Split struct {
	Seconds float64 `json:"seconds"`
	Acts    int64   `json:"acts"`
	P50     float64 `json:"p50Ms"`
	P99     float64 `json:"p99Ms"`
	Stop    *Split  `json:"withStop,omitempty"`
}

// splitOf is the acts counted in c; nil when there are none.
func splitOf(c splitCounts) *Split {
	if n := sum(c.counts); n > 0 {
		return &Split{Seconds: c.secs, Acts: n, P50: quantileOf(c.counts, 0.5), P99: quantileOf(c.counts, 0.99)}
	}
	return nil
}

// splits are the run's acts answered with and without a collection in
// their second, each with its seconds of a Stop apart; nil for a set no
// second fell in.
func (tl *sampler) splits() (with, without *Split) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	of := func(c [2]splitCounts) *Split {
		var both splitCounts
		for _, part := range c {
			if part.counts != nil {
				both.add(part.counts, part.secs)
			}
		}
		s := splitOf(both)
		if s != nil {
			s.Stop = splitOf(c[1])
		}
		return s
	}
	return of(tl.split[collecting]), of(tl.split[calm])
}

// tally counts an interval's acts in the split its collector's CPU and
// the owner's Stop (stop: one was answered in it) put them in, once
// intervals begin after the first quarter. The warm-up's seconds
// (connections opening, the heap growing to its size) are slow with or
// without a collection; counted, they made the seconds without one look
// slow, beside an actsAfterFirstQuarter that leaves them out.
func (tl *sampler) tally(all []int64, secs, gc float64, stop bool) {
	if !tl.steady {
		return
	}
	which, stopped := calm, 0
	if gc > 0 {
		which = collecting
	}
	if stop {
		stopped = 1
	}
	tl.split[which][stopped].add(all, secs)
}

// sampleEvery is the timeline's interval.
const sampleEvery = time.Second

// startSampler samples r once a second until the returned stop is
// called, which takes a last sample and returns once it is in.
func (r *run) startSampler() (stop func()) {
	tl := &r.sampler
	tl.mu.Lock()
	tl.prev, tl.at, tl.cpu, tl.rt = map[*hist][]int64{}, time.Now(), cpuTime(), readGoRuntime()
	tl.srv, tl.srvOK = r.serverCPUNow()
	tl.host, tl.onHost = readHostCPU(), r.local != nil || onThisHost(r.targetURLs())
	tl.snapshot(r)
	tl.mu.Unlock()
	done, over := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(over)
		t := time.NewTicker(sampleEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				tl.sample(r)
				return
			case <-t.C:
				tl.sample(r)
			}
		}
	}()
	return func() { close(done); <-over }
}

// snapshot takes every histogram's counts as the next interval's start.
func (tl *sampler) snapshot(r *run) {
	for _, h := range tl.hists(r) {
		tl.prev[h] = h.counts64()
	}
	tl.crashes = r.restarts()
}

func (tl *sampler) hists(r *run) []*hist {
	out := []*hist{&r.stats.all}
	for _, h := range r.stats.act {
		out = append(out, h)
	}
	for _, h := range r.stats.owner {
		out = append(out, h)
	}
	return out
}

// sample closes the interval: rates and percentiles of what was answered
// since the last sample, CPU and heap.
func (tl *sampler) sample(r *run) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	now, steady := time.Now(), tl.steady // the interval began after the first quarter
	secs := now.Sub(tl.at).Seconds()
	if secs <= 0 {
		return
	}
	cpu, host := cpuTime(), readHostCPU()
	s := Sample{At: now.Sub(r.start).Seconds(), CPU: (cpu - tl.cpu).Seconds() / secs, Heap: liveHeap(),
		Actions: map[string]Point{}, Faults: map[string]Point{}}
	all := tl.delta(&r.stats.all)
	s.Acts = float64(sum(all)) / secs
	s.P50, s.P90, s.P99 = quantileOf(all, 0.5), quantileOf(all, 0.9), quantileOf(all, 0.99)
	for label, h := range r.stats.act {
		if d := tl.delta(h); sum(d) > 0 {
			s.Actions[label] = Point{Rate: float64(sum(d)) / secs, P99: quantileOf(d, 0.99)}
		}
	}
	for label, h := range r.stats.owner {
		if d := tl.delta(h); sum(d) > 0 && label != "healthz" {
			s.Faults[label] = Point{Rate: float64(sum(d)) / secs, P99: quantileOf(d, 0.99)}
		}
	}
	rt := readGoRuntime()
	if wait, gc, ok := rt.since(tl.rt); ok {
		s.Wait, s.GC = wait, gc/secs
		_, stop := s.Faults["stop"]
		_, everywhere := s.Faults["stop_everywhere"]
		tl.tally(all, secs, gc, stop || everywhere)
	}
	tl.rt, tl.steady = rt, r.stats.warm.Load()
	if crashes := r.restarts(); crashes > tl.crashes {
		s.Faults["crash"] = Point{Rate: float64(crashes-tl.crashes) / secs}
	}
	read, srvSecs := false, 0.0
	if tl.srvOK {
		srv, ok := r.serverCPUNow()
		if ok {
			s.Server = (srv - tl.srv) / secs
			read, srvSecs = true, srv-tl.srv
		}
		tl.srv, tl.srvOK = srv, ok
	}
	server, known := targetsOnHost(r.local != nil, tl.onHost, read, srvSecs)
	if others, steal, ok := othersCores(tl.host, host, (cpu - tl.cpu).Seconds(), server, secs); ok && known {
		s.Others, s.Steal = others, steal
		if steady {
			tl.hostLoad.add(others, steal, secs)
		}
	}
	tl.host = host
	tl.snapshot(r)
	tl.at, tl.cpu = now, cpu
	tl.samples = append(tl.samples, s)
}

// delta is what h counted since the last snapshot, per bucket.
func (tl *sampler) delta(h *hist) []int64 {
	cur, prev := h.counts64(), tl.prev[h]
	if prev != nil {
		for i := range cur {
			cur[i] -= prev[i]
		}
	}
	return cur
}

// Samples are the timeline so far.
func (tl *sampler) Samples() []Sample {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	return append([]Sample(nil), tl.samples...)
}

func (h *hist) counts64() []int64 {
	out := make([]int64, histBuckets)
	for i := range h.counts {
		out[i] = h.counts[i].Load()
	}
	return out
}

func sum(c []int64) int64 {
	var n int64
	for _, v := range c {
		n += v
	}
	return n
}

// quantileOf is the q-quantile of bucket counts c, in milliseconds (its
// bucket's top).
func quantileOf(c []int64, q float64) float64 {
	n := sum(c)
	if n == 0 {
		return 0
	}
	rank := int64(q*float64(n) + 0.999999)
	var seen int64
	for i, v := range c {
		seen += v
		if seen >= rank {
			return float64(upper(i)) / 1000
		}
	}
	return 0
}

// cpuTime is the CPU this process used, user and system; 0 when the
// system would not say.
func cpuTime() time.Duration {
	d, _ := buddimetrics.CPUTime()
	return d
}

// liveHeap reads the heap's objects without stopping the world.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
