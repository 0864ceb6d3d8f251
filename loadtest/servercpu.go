package loadtest

import (
	"context"
	"errors"
	"time"

	"github.com/buddi-dev/buddi/metrics"
)

// A run against running daemons (--target) learns what their own
// processes spent: it reads each member's process_cpu_seconds_total from
// its /metrics, with its owner token, as the active run starts and again
// once every agent and the owner stopped, and divides the difference by
// the acts answered. The harness's own CPU is the other line of the
// report; the timeline reads the members' CPU each second too, for the
// HTML report's plot. A member whose /metrics has no such figure (a build
// before it) or did not answer is named in a note and left out: the run
// then gives no total, since part of it would be missing.

// cpuFamily is the family a member's /metrics gives its CPU time in.
const cpuFamily = "process_cpu_seconds_total"

// serverCPU is one member's CPU as its /metrics says: at the start of the
// run, then what it spent over the run, and whether both were read.
type serverCPU struct {
	at, spent float64
	known     bool
}

// startServerCPU reads each member's CPU as the active run starts; it
// does nothing when buddi runs in this process, whose CPU is the
// harness's too.
func (r *run) startServerCPU() {
	if r.local != nil {
		return
	}
	for _, m := range r.members {
		m.cpu.at, m.cpu.known = r.serverCPUOf(m)
	}
}

// endServerCPU reads each member's CPU again as the run ends.
func (r *run) endServerCPU() {
	for _, m := range r.members {
		if !m.cpu.known {
			continue
		}
		end, ok := r.serverCPUOf(m)
		m.cpu.spent, m.cpu.known = end-m.cpu.at, ok && end >= m.cpu.at
	}
}

// serverCPUOf is member m's CPU seconds so far; false, with a note, when
// its /metrics did not give them.
func (r *run) serverCPUOf(m *member) (float64, bool) {
	v, err := m.readCPU()
	switch {
	case errors.Is(err, errNoCPU):
		r.note("%s's /metrics has no %s (a buddi built before it): its CPU per act is left out", m.url, cpuFamily)
	case err != nil:
		r.note("%s's /metrics did not answer (%v): its CPU per act is left out", m.url, err)
	}
	return v, err == nil
}

// errNoCPU is a /metrics page without the process's CPU.
var errNoCPU = errors.New("no " + cpuFamily)

// readCPU reads m's CPU seconds from its /metrics.
func (m *member) readCPU() (float64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	page, err := m.cl.api.Owner(m.owner).Metrics(ctx)
	if err != nil {
		return 0, err
	}
	v, ok := metrics.Value(page, cpuFamily)
	if !ok {
		return 0, errNoCPU
	}
	return v, nil
}

// serverCPUNow is the members' CPU seconds so far, summed, for the
// timeline; false in process, or when a member's were not read at the
// start or are not now.
func (r *run) serverCPUNow() (float64, bool) {
	if r.local != nil {
		return 0, false
	}
	total := 0.0
	for _, m := range r.members {
		if !m.cpu.known {
			return 0, false
		}
		v, err := m.readCPU()
		if err != nil {
			return 0, false
		}
		total += v
	}
	return total, true
}

// serverCPUReport fills the report's server CPU, and each member's, from
// what the members' /metrics said: a member that did not say has none,
// and the run has no total then.
func (r *run) serverCPUReport(rep *Report) {
	if r.local != nil {
		return
	}
	total, all := 0.0, true
	for i, m := range r.members {
		if !m.cpu.known {
			all = false
			continue
		}
		total += m.cpu.spent
		if i < len(rep.Members) {
			rep.Members[i].ServerCPU = m.cpu.spent
			rep.Members[i].ServerCPUPerAct = perAct(m.cpu.spent, rep.Acts)
		}
	}
	if all {
		rep.ServerCPU, rep.ServerCPUPerAct = total, perAct(total, rep.Acts)
	}
}

// perAct is CPU seconds over acts, in microseconds.
func perAct(seconds float64, acts int64) float64 {
	if acts == 0 {
		return 0
	}
	return seconds * 1e6 / float64(acts)
}
