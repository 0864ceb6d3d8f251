package loadtest

import (
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"time"

	buddimetrics "github.com/buddi-dev/buddi/metrics"
)

// memory holds the heap samples of an in-process run, all after GC.
type memory struct {
	base, setup, quarter, end uint64
	rss                       uint64
	goroutines                int
	templates                 uint64 // the sim's page templates, one copy shared by every profile
}

// sample holds the load (agents finish their act in flight and wait),
// lets the daemon finish its pictures, collects garbage and reads the live heap.
// held, when not nil, runs while the load is still held (the end sample
// ends the run there, so no agent starts another act).
func (r *run) sample(name string, held func()) uint64 {
	t, cpu := time.Now(), cpuTime()
	r.gate.Lock()
	defer func() {
		if held != nil {
			held()
		}
		r.holds.Add(1)
		r.gate.Unlock()
		r.paused += time.Since(t)
		r.cpuPaused += cpuTime() - cpu
	}()
	r.drained()
	h := settledHeap()
	if r.cfg.MemProfile != "" {
		r.heapProfile(r.cfg.MemProfile + "." + name)
	}
	return h
}

func (r *run) heapProfile(path string) {
	f, err := os.Create(path)
	if err == nil {
		err = pprof.Lookup("heap").WriteTo(f, 0)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		r.note("the heap profile %s could not be written: %v", path, err)
	}
}

// quietHeap is the settled heap once it stops shrinking (by more than
// 1 %, for at most a few seconds): a run before this one in the same
// process may still be letting go of its daemon, and a base that counts it
// would make every later figure per conversation too small.
func quietHeap() uint64 {
	h := settledHeap()
	for range 10 {
		time.Sleep(150 * time.Millisecond)
		next := settledHeap()
		if next+next/100 >= h {
			return min(h, next)
		}
		h = next
	}
	return h
}

// drained waits, at most 15 s, until the in-process daemon takes or scales
// no picture of a page: each holds a screenshot (a megabyte while decoded),
// one per session, and on a loaded machine they drain only as fast as the
// cores scale them.
func (r *run) drained() {
	if r.local == nil {
		return
	}
	for by := time.Now().Add(15 * time.Second); r.local.d.Pictures() > 0 && time.Now().Before(by); {
		time.Sleep(20 * time.Millisecond)
	}
}

func settledHeap() uint64 {
	time.Sleep(200 * time.Millisecond) // ledger writes, pictures and state pushes of the last acts
	runtime.GC()
	runtime.GC()
	// What the last collection marked live, not HeapAlloc: on a loaded
	// machine the daemon's goroutines allocate between the collection and
	// the read (megabytes of a picture at a time), which HeapAlloc counts.
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 {
		return s[0].Value.Uint64()
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// rss is this process's resident set, or 0 where /proc is missing.
func rss() uint64 {
	n, _ := buddimetrics.ResidentBytes()
	return n
}

// runtimeGoroutines counts this process's goroutines when the daemon runs
// in it; 0 otherwise.
func runtimeGoroutines(r *run) int {
	if r.local == nil {
		return 0
	}
	return runtime.NumGoroutine()
}
