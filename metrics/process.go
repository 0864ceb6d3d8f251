package metrics

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Process adds the families every Prometheus exporter names alike for the
// process itself: process_cpu_seconds_total, the CPU time it used (user
// and system, from getrusage), and process_resident_memory_bytes, its
// resident set where /proc tells it (Linux; elsewhere the family has no
// sample). A load test reads the first before and after a run to learn
// what the server spent per act.
func (r *Registry) Process() {
	r.CounterFunc("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", nil, func(emit Emit) {
		if d, ok := CPUTime(); ok {
			emit(d.Seconds())
		}
	})
	r.GaugeFunc("process_resident_memory_bytes", "Resident memory size in bytes.", nil, func(emit Emit) {
		if n, ok := ResidentBytes(); ok {
			emit(float64(n))
		}
	})
}

// CPUTime is the CPU time this process used, user and system; false when
// the system would not say.
func CPUTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

// ResidentBytes is the process's resident set from /proc/self/statm;
// false where there is none (macOS).
func ResidentBytes() (uint64, bool) {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * uint64(os.Getpagesize()), true
}
