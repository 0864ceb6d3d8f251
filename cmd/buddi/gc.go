package main

import "runtime/debug"

// daemonGC is the collector's target for a process that runs the daemon
// (serve, and loadtest's in-process daemon): a collection starts once the
// heap has grown by twice what was live after the last one. The daemon's
// live heap is small (tens of KB per conversation) and its allocation is
// per act, so the default of 100 spends about a sixth of the CPU under
// load on collections; 200 halves that for a peak heap of three times the
// live one.
const daemonGC = 200

// tuneGC sets the collector's target for a daemon process, unless GOGC in
// the environment already chose one.
func tuneGC(e *env) {
	if e.getenv("GOGC") == "" {
		debug.SetGCPercent(daemonGC)
	}
}
