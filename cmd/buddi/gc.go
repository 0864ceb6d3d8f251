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

// bridgeGC is the collector's target for buddi mcp. The bridge keeps
// almost nothing live (a few MB), so Go's default of 100 collected at every
// 4 MB allocated: every three or four observations of 20 KB, whose answer
// the MCP SDK encodes in several copies (about 1 MB of garbage each). With
// 400 it collects at 16 MB: against an HTTP server answering such an
// observation, the bridge's CPU per call fell from 2.3-2.5 ms to 1.4-1.7 ms
// (GOGC 200: 2.0 ms; 800: 1.6-1.7 ms), for a heap of at most 16 MB.
const bridgeGC = 400

// tuneGC sets the collector's target for a process of buddi's (daemonGC,
// bridgeGC), unless GOGC in the environment already chose one.
func tuneGC(e *env, percent int) {
	if e.getenv("GOGC") == "" {
		debug.SetGCPercent(percent)
	}
}
