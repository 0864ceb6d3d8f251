package loadtest

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
)

// WriteTable writes the report for a person: the headline figures, latency
// per action and per owner control, errors by code, and the invariants.
func (r *Report) WriteTable(out io.Writer) error {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	r.headline(w)
	if r.Idle != nil {
		r.idleLines(w)
	}
	fmt.Fprintln(w, "\nACTION\tCOUNT\tP50 ms\tP90 ms\tP99 ms\tMAX ms")
	row(w, "all acts", r.AllActs)
	if r.SteadyActs.Count > 0 {
		row(w, "after 25%", r.SteadyActs)
	}
	for _, k := range sortedSummaries(r.Latency) {
		row(w, k, r.Latency[k])
	}
	r.memberLines(w)
	if len(r.Owner) > 0 {
		fmt.Fprintln(w, "\nOWNER CONTROL\tCOUNT\tP50 ms\tP90 ms\tP99 ms\tMAX ms")
		for _, k := range sortedSummaries(r.Owner) {
			row(w, k, r.Owner[k])
		}
	}
	if len(r.Errors) > 0 {
		fmt.Fprintln(w, "\nACT ERROR CODE\tCOUNT")
		for _, k := range sortedKeys(r.Errors) {
			fmt.Fprintf(w, "%s\t%d\n", k, r.Errors[k])
		}
	}
	fmt.Fprintln(w, "\nINVARIANT\tSTATUS\tCHECKED\tVIOLATIONS\tNOTE")
	for _, inv := range r.Invariants {
		fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%s\n", inv.Name, strings.ToUpper(inv.Status), inv.Checked, inv.Violations, inv.Note)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	for _, inv := range r.Invariants {
		for _, e := range inv.Examples {
			fmt.Fprintf(out, "  %s: %s\n", inv.Name, e)
		}
	}
	for _, e := range r.TransportErrors {
		fmt.Fprintf(out, "  transport error: %s\n", e)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(out, "  note: %s\n", n)
	}
	return nil
}

func (r *Report) headline(w io.Writer) {
	where := r.Target
	if len(r.Members) > 0 {
		where = fmt.Sprintf("a cluster of %d members: %s taking the owner's controls", len(r.Members), r.Target)
		for _, m := range r.Members[1:] {
			where += ", " + m.Target
		}
	}
	if r.Profiles > 0 {
		where += fmt.Sprintf(", %d profiles", r.Profiles)
	}
	if r.Pipeline > 0 {
		where += fmt.Sprintf(", the agents' calls pipelined on %d connections", r.Pipeline)
	}
	if r.Idle != nil {
		fmt.Fprintf(w, "buddi loadtest --idle: %d sessions, %s driver (%s), %.1f s\n", r.Conversations, r.Driver, where, r.Active)
	} else {
		fmt.Fprintf(w, "buddi loadtest: %d conversations, %s driver (%s), %.1f s (%.1f s active)\n",
			r.Conversations, r.Driver, where, r.Duration, r.Active)
	}
	fmt.Fprintf(w, "requests %d, acts %d (%d ok), %.0f acts/s, unexpected errors %d%s\n",
		r.Requests, r.Acts, r.ActsOK, r.ActsPerSecond, r.Unexpected, breakdown(r.UnexpectedBy))
	r.cpuLine(w)
	fmt.Fprintf(w, "restarts %d, tasks renewed %d%s, stale probes %d (%d refused), inputs %d (driver counted %d)\n",
		r.Restarts, r.RenewedTotal, breakdown(r.Renewed), r.Probes, r.ProbesRefused, r.Inputs, r.InputsDriver)
	if len(r.Stuck) > 0 {
		fmt.Fprintf(w, "conversations stuck (a new task kept failing):%s\n", breakdown(r.Stuck))
	}
	if len(r.Controls) > 0 {
		fmt.Fprintf(w, "owner controls:%s\n", breakdown(r.Controls))
	}
	if h := r.Hands; h != nil {
		link := "loopback"
		if h.LinkKbps > 0 {
			link = fmt.Sprintf("%d kbit/s", h.LinkKbps)
		}
		fmt.Fprintf(w, "hands: %d on %s, %d frames (%.1f/s and %s/s each), frame age p50 %.0f ms p99 %.0f ms max %.0f ms, ended and taken over again %d%s\n",
			h.Hands, link, h.Frames, h.FramesPerSec, fmtBytes(h.BytesPerSecond), h.Age.P50, h.Age.P99, h.Age.Max, h.Ended, breakdown(h.EndedBy))
	}
	if a := r.Audit; a != nil {
		fmt.Fprintf(w, "audit trail: %d act lines and %d control lines written (%.0f lines/s), %d and %d kept in %d files of %s (largest %s)\n",
			a.ActsWritten, a.ControlsWritten, float64(a.ActsWritten+a.ControlsWritten)/max(r.Active, 1e-9), a.Acts, a.Controls, a.Files,
			fmtBytes(float64(a.Bytes)), fmtBytes(float64(a.MaxFileBytes)))
	}
	if m := r.Memory; m != nil {
		fmt.Fprintf(w, "memory: heap %s per conversation (base %s, at 25%% %s, end %s), RSS %s (%s per conversation), goroutines %d (%.1f per conversation)\n",
			fmtBytes(m.HeapPerConv), fmtBytes(float64(m.HeapBase)), fmtBytes(float64(m.HeapQuarter)), fmtBytes(float64(m.HeapEnd)),
			fmtBytes(float64(m.RSS)), fmtBytes(m.RSSPerConv), r.Goroutines, m.GoroutinesPerConv)
		if m.SimTemplates > 0 {
			fmt.Fprintf(w, "        of which the sim's page templates: %s, one copy for its %d profiles (%s per conversation)\n",
				fmtBytes(float64(m.SimTemplates)), r.Profiles, fmtBytes(float64(m.SimTemplates)/float64(max(r.Conversations, 1))))
		}
	}
}

// cpuLine is the CPU per act: of the harness and buddi when buddi runs
// in process; of the harness alone when it drives running daemons, and
// then of the daemons' own processes on a line of its own when their
// /metrics said.
func (r *Report) cpuLine(w io.Writer) {
	if r.CPU == 0 || r.Idle != nil {
		return
	}
	whose := "harness and in-process buddi"
	switch {
	case r.Target == "in-process":
	case r.ServerCPU > 0:
		whose = "the harness alone"
	default:
		whose = "the harness alone; buddi's own is on its host"
	}
	fmt.Fprintf(w, "cpu %.1f µs per act, %.2f cores (%s)\n", r.CPUPerAct, r.CPU/max(r.Active, 1e-9), whose)
	if r.ServerCPU > 0 {
		whose = "the target's own process; harness excluded"
		if len(r.Members) > 1 {
			whose = fmt.Sprintf("the %d targets' own processes; harness excluded", len(r.Members))
		}
		fmt.Fprintf(w, "server cpu %.1f µs per act, %.2f cores (%s)\n", r.ServerCPUPerAct, r.ServerCPU/max(r.Active, 1e-9), whose)
	}
	r.waitLine(w)
}

// waitLine is how long this process's goroutines waited for a core, and
// what its collector took: the part of the acts' latency that is the
// machine being busy rather than an act's own work.
func (r *Report) waitLine(w io.Writer) {
	if r.RunWaitP99 == 0 {
		return
	}
	whose := "the harness's and in-process buddi's"
	if r.Target != "in-process" {
		whose = "the harness's"
	}
	gc := ""
	if r.CPU > 0 {
		gc = fmt.Sprintf("; the collector ran %d times, on %.1f %% of its CPU (%.1f %% in goroutines' assists), for %.1f KB allocated per act",
			r.GCCycles, 100*r.GCCPU/r.CPU, 100*r.GCAssistCPU/r.CPU, r.AllocPerAct/1024)
	}
	fmt.Fprintf(w, "waiting to run: p99 %.2f ms (%s goroutines, once runnable, as the Go runtime counts)%s\n", r.RunWaitP99, whose, gc)
	if c, o := r.WithCollection, r.WithoutCollection; c != nil && o != nil {
		fmt.Fprintf(w, "after the first quarter, acts in the %.0f s with a collection: p50 %.2f ms, p99 %.2f ms (%d acts); in the %.0f s without: p50 %.2f ms, p99 %.2f ms (%d acts)\n",
			c.Seconds, c.P50, c.P99, c.Acts, o.Seconds, o.P50, o.P99, o.Acts)
		if c.Stop != nil || o.Stop != nil {
			fmt.Fprintf(w, "of those, the seconds in which the owner's Stop of all sessions was answered: with a collection, %s; without, %s\n",
				stopPart(c.Stop), stopPart(o.Stop))
		}
	}
	if h := r.Host; h != nil {
		fmt.Fprintf(w, "other processes on this host after the first quarter: %.2f cores on average, %.2f at most in a second, more than %.1f in %d of %.0f s; steal %.2f cores\n",
			h.Others, h.OthersMax, noisySecond, h.NoisySeconds, h.Seconds, h.Steal)
	}
}

// stopPart says a Split's seconds with a Stop, or that there were none.
func stopPart(s *Split) string {
	if s == nil {
		return "none"
	}
	return fmt.Sprintf("%.0f s, p99 %.2f ms (%d acts)", s.Seconds, s.P99, s.Acts)
}

// memberLines is the acts through each member of a cluster.
func (r *Report) memberLines(w io.Writer) {
	if len(r.Members) == 0 {
		return
	}
	fmt.Fprintln(w, "\nACTS THROUGH\tCOUNT\tP50 ms\tP90 ms\tP99 ms\tMAX ms\tOK\tCONVERSATIONS\tSERVER CPU µs/ACT")
	for _, m := range r.Members {
		cpu := "-" // its /metrics did not say
		if m.ServerCPU > 0 {
			cpu = fmt.Sprintf("%.1f", m.ServerCPUPerAct)
		}
		fmt.Fprintf(w, "%s\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%d\t%d\t%s\n", m.Target, m.Acts, m.Latency.P50, m.Latency.P90,
			m.Latency.P99, m.Latency.Max, m.ActsOK, m.Conversations, cpu)
	}
}

func (r *Report) idleLines(w io.Writer) {
	ir := r.Idle
	fmt.Fprintf(w, "idle: %d sessions started in %.1f s and released in %.1f s; failed: %d starts, %d observations, %d releases; %d left running\n",
		ir.Sessions, ir.StartSeconds, ir.ReleaseSeconds, ir.StartFailed, ir.ObserveFailed, ir.ReleaseFailed, ir.SessionsLeft)
	fmt.Fprintf(w, "idle heap per session: %s started, %s after one observation, %s left after release; RSS %s per session, %d goroutines while idle\n",
		fmtBytes(ir.HeapPerStarted), fmtBytes(ir.HeapPerObserved), fmtBytes(ir.HeapLeftPerConv), fmtBytes(ir.RSSPerSession), ir.Goroutines)
	for k, rd := range ir.Rounds {
		pruned := ""
		if rd.PruneSeconds > 0 {
			pruned = fmt.Sprintf(", pruned %.1f s after the release", rd.PruneSeconds)
		}
		fmt.Fprintf(w, "idle round %d left: heap %s, %d records of %s in the store (live %s, %s on disk)%s\n",
			k+1, fmtBytes(float64(rd.HeapBytes)), rd.StoreRecords, fmtBytes(float64(rd.StoreRecordBytes)), fmtBytes(float64(rd.StoreLiveBytes)), fmtBytes(float64(rd.StoreDiskBytes)), pruned)
	}
}

func row(w io.Writer, name string, s Summary) {
	fmt.Fprintf(w, "%s\t%d\t%.2f\t%.2f\t%.2f\t%.2f\n", name, s.Count, s.P50, s.P90, s.P99, s.Max)
}

func breakdown(m map[string]int64) string {
	if len(m) == 0 {
		return ""
	}
	parts := make([]string, 0, len(m))
	for _, k := range sortedKeys(m) {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func sortedSummaries(m map[string]Summary) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
