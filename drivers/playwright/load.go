package playwright

import (
	"bytes"
	"math"
	"os"
	"runtime"
	"strconv"
	"sync/atomic"
	"time"
)

// maxLoad caps how far the machine's load stretches a bound: past four
// runnable threads a core, a launch that has not finished is not coming.
const maxLoad = 4

// loadFresh is how long a reading of the load serves: every engine call
// asks for it, and reading the file costs more than the answer changes in
// that time.
const loadFresh = 250 * time.Millisecond

// lastLoad is the latest reading of the load and when it was taken.
var lastLoad struct {
	at   atomic.Int64  // unix nanoseconds; 0 before the first reading
	bits atomic.Uint64 // the value, as math.Float64bits
}

// machineLoad is how busy the machine is, per core: the larger of the
// one-minute load average and the threads runnable right now (which sees a
// burst the average has not caught up with), divided by the cores, at
// least 1 and at most maxLoad. It reads /proc/loadavg (elsewhere it is 1),
// at most once per loadFresh.
func machineLoad() float64 {
	now := time.Now().UnixNano()
	if at := lastLoad.at.Load(); at != 0 && now-at < int64(loadFresh) {
		return math.Float64frombits(lastLoad.bits.Load())
	}
	load := 1.0
	if raw, err := os.ReadFile("/proc/loadavg"); err == nil {
		load = loadOf(raw, runtime.NumCPU())
	}
	lastLoad.bits.Store(math.Float64bits(load))
	lastLoad.at.Store(now)
	return load
}

// loadOf reads /proc/loadavg's text for cpus cores.
func loadOf(raw []byte, cpus int) float64 {
	f := bytes.Fields(raw)
	if len(f) < 4 || cpus < 1 {
		return 1
	}
	avg, err := strconv.ParseFloat(string(f[0]), 64)
	if err != nil {
		return 1
	}
	if run, _, ok := bytes.Cut(f[3], []byte("/")); ok {
		if n, err := strconv.Atoi(string(run)); err == nil && float64(n-1) > avg {
			avg = float64(n - 1) // this reader is one of them
		}
	}
	return min(max(avg/float64(cpus), 1), maxLoad)
}

// scaled is d stretched by load (at least 1, capped by maxLoad and by
// ceiling, a multiple of d that a bound may grow to at most).
func scaled(d time.Duration, load, ceiling float64) time.Duration {
	return time.Duration(float64(d) * min(load, ceiling))
}

// underLoad is d stretched by the machine's load now, up to maxLoad: how
// long to wait for a page that is only slow because the machine is busy.
func underLoad(d time.Duration) time.Duration {
	return scaled(d, machineLoad(), maxLoad)
}
