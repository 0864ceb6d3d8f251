package main

import "runtime"

// daemonProcs is the fewest Ps (threads running Go code at once) a
// process that runs the daemon starts with on a small machine. With as
// many Ps as cores, both of a 2-core machine's are busy at 10,000 acts/s:
// a goroutine made runnable (an act's answer, read by the network poller)
// waits in a P's queue, and the poller is read only when a P has nothing
// else to run. With more Ps than cores one is nearly always idle: it
// polls, and runs the goroutine at once, and the kernel shares the cores
// among the threads more finely than Go's queues do. In paired load tests
// on 2 cores (1,000 conversations, 10,000 acts/s, crashes and owner
// controls, the harness in the process) six Ps against two made the median
// act 4-7x, the 90th percentile 4-17x and the 99th 1-5x faster, for 5-18 %
// more CPU per act (seven pairs). Four against six was a draw in four
// pairs (a 99th percentile of 20-40 ms against 15-76, for 1-6 % less CPU);
// eight did no better than six.
const daemonProcs = 6

// procsFor is how many Ps a daemon's process sets: daemonProcs when the
// machine has fewer CPUs than that, and 0 (leave Go's choice) when the
// machine has as many, when GOMAXPROCS in the environment already chose,
// or when Go's choice is below the CPUs (a container's CPU limit, whose
// quota more threads would only spend sooner).
func procsFor(gomaxprocs string, procs, cpus int) int {
	if gomaxprocs != "" || procs < cpus || cpus >= daemonProcs {
		return 0
	}
	return daemonProcs
}

// tuneProcs raises the daemon's Ps to daemonProcs on a small machine
// (procsFor).
func tuneProcs(e *env) {
	if n := procsFor(e.getenv("GOMAXPROCS"), runtime.GOMAXPROCS(0), runtime.NumCPU()); n > 0 {
		runtime.GOMAXPROCS(n)
	}
}
