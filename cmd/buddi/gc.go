package main

import "runtime/debug"

// daemonGC is the collector's target for a process that runs the daemon
// (serve, and loadtest's in-process daemon): a collection starts once the
// heap has grown by four times what was live after the last one. The
// daemon's live heap is small (tens of KB per conversation) and its
// allocation is per act. Under load the collector's mark phases are where
// an act's slowest answers come from: on two cores its worker holds one of
// them for up to about 5 ms at a time, and the acts waiting meanwhile make
// the p99: in a 4 s runtime trace of the load test at 10,000 acts/s the
// 10 mark phases took 4 % of the time, and 82 % of the goroutines' waits
// over 5 ms to run began in one or within 5 ms after it. Go's default of
// 100 also spends about a sixth of the CPU on collections. 400 makes them
// half as frequent as 200 did, for a peak heap of five times the live one:
// paired load tests gave a p99 12 to 15 % lower and 4 % less CPU per act,
// for an RSS of 310 MB instead of 225 MB at 1,000 live conversations.
const daemonGC = 400

// tuneGC sets the collector's target for a daemon process, unless GOGC in
// the environment already chose one.
func tuneGC(e *env) {
	if e.getenv("GOGC") == "" {
		debug.SetGCPercent(daemonGC)
	}
}
