package loadtest

import "time"

// Report is what a run measured and whether its invariants held.
type Report struct {
	Driver string `json:"driver"`
	Target string `json:"target"` // "in-process" or the URL (of a cluster, the member taking the owner's controls)
	// Members is the acts through each member of a cluster (several
	// targets); absent for one target.
	Members       []MemberReport `json:"members,omitempty"`
	Conversations int            `json:"conversations"`
	Profiles      int            `json:"profiles,omitempty"`
	// Pipeline is how many pipelined connections carried the agents'
	// calls to each daemon; absent when each agent had its own.
	Pipeline int     `json:"pipelinedConnections,omitempty"`
	Duration float64 `json:"durationSeconds"`
	Active   float64 `json:"activeSeconds"` // the duration less the pauses for memory samples

	Requests      int64   `json:"requests"`
	Acts          int64   `json:"acts"`
	ActsOK        int64   `json:"actsOk"`
	ActsPerSecond float64 `json:"actsPerSecond"`
	// CPU is this process's CPU time over the active run (harness and, in
	// process, buddi); CPUPerAct is it per act answered.
	CPU           float64            `json:"cpuSeconds"`
	CPUPerAct     float64            `json:"cpuMicrosecondsPerAct"`
	Errors        map[string]int64   `json:"errorsByCode"`
	Unexpected    int64              `json:"unexpectedErrors"`
	UnexpectedBy  map[string]int64   `json:"unexpectedErrorsByCode,omitempty"`
	AllActs       Summary            `json:"allActs"`
	SteadyActs    Summary            `json:"actsAfterFirstQuarter"`
	Latency       map[string]Summary `json:"latencyByAction"`
	Owner         map[string]Summary `json:"latencyByOwnerControl"`
	Controls      map[string]int64   `json:"ownerControls"`
	Renewed       map[string]int64   `json:"tasksRenewedBy"`
	RenewedTotal  int64              `json:"tasksRenewed"`
	Stuck         map[string]int64   `json:"conversationsStuck,omitempty"`
	Probes        int64              `json:"staleProbes"`
	ProbesRefused int64              `json:"staleProbesRefused"`
	Inputs        int64              `json:"inputsSeen"`
	InputsDriver  int64              `json:"inputsCountedByDriver"`
	Restarts      int64              `json:"restarts"`

	// ServerCPU is the CPU time the targets' own processes used over the
	// active run, as their /metrics said (process_cpu_seconds_total), the
	// harness excluded; ServerCPUPerAct is it per act answered. Both are
	// absent in process, and when a target's /metrics did not say.
	ServerCPU       float64 `json:"serverCpuSeconds,omitempty"`
	ServerCPUPerAct float64 `json:"serverCpuMicrosecondsPerAct,omitempty"`

	// RunWaitP99 is how long this process's goroutines (the harness's,
	// and buddi's in process) waited to run once they could, at the 99th
	// percentile over the run, as the Go runtime counts it; GCCPU is the
	// CPU seconds its collector used, GCAssistCPU the part of them its
	// goroutines spent assisting it as they allocated. A wait as long as the
	// acts' p99 says the cores were the bottleneck, not the work of one act.
	RunWaitP99  float64 `json:"runWaitP99Ms,omitempty"`
	GCCPU       float64 `json:"gcCpuSeconds,omitempty"`
	GCAssistCPU float64 `json:"gcAssistCpuSeconds,omitempty"`
	// AllocPerAct is the heap this process allocated per act answered,
	// and GCCycles how many collections it made over the run: fewer bytes
	// per act, fewer collections.
	AllocPerAct float64 `json:"allocBytesPerAct,omitempty"`
	GCCycles    uint64  `json:"gcCycles,omitempty"`
	// WithCollection is the acts answered in the seconds after the first
	// quarter in which this process's collector ran, WithoutCollection
	// those of the others: where the two p99s differ, the collector is
	// what actsAfterFirstQuarter's p99 is.
	WithCollection    *Split `json:"secondsWithCollection,omitempty"`
	WithoutCollection *Split `json:"secondsWithoutCollection,omitempty"`
	// Host is what else ran on this host after the first quarter: a p99
	// read while other processes held the cores is theirs as much as buddi's.
	Host *HostLoad `json:"host,omitempty"`

	Memory     *MemoryReport `json:"memory,omitempty"`
	Goroutines int           `json:"goroutines,omitempty"`
	Idle       *IdleReport   `json:"idle,omitempty"`
	Hands      *HandsReport  `json:"hands,omitempty"`
	Audit      *AuditReport  `json:"audit,omitempty"`

	// Timeline is the run second by second (the HTML report's plots).
	Timeline []Sample `json:"timeline,omitempty"`

	Invariants      []Result `json:"invariants"`
	TransportErrors []string `json:"transportErrors,omitempty"`
	Notes           []string `json:"notes,omitempty"`
}

// MemoryReport is the in-process heap and RSS, after GC.
type MemoryReport struct {
	HeapBase          uint64  `json:"heapBaseBytes"` // before any conversation
	HeapQuarter       uint64  `json:"heapQuarterBytes"`
	HeapEnd           uint64  `json:"heapEndBytes"`
	HeapPerConv       float64 `json:"heapPerConversationBytes"`
	RSS               uint64  `json:"rssBytes"`
	RSSPerConv        float64 `json:"rssPerConversationBytes"`
	GoroutinesPerConv float64 `json:"goroutinesPerConversation"`
	SimTemplates      uint64  `json:"simTemplatesBytes,omitempty"`
}

// Passed reports whether every applicable invariant held.
func (r *Report) Passed() bool { return Passed(r.Invariants) }

func (r *run) report() *Report {
	s := r.stats
	active := time.Since(r.start) - r.paused
	rep := &Report{
		Driver: r.cfg.Driver, Target: "in-process", Conversations: r.cfg.Conversations, Pipeline: r.cfg.Pipeline,
		Duration: r.cfg.Duration.Seconds(), Active: active.Seconds(),
		Requests: s.requests.Load(), Acts: s.acts.Load(), ActsOK: s.ok.Load(),
		Errors: s.snapshot(s.codes), Unexpected: s.unexpected.Load(), UnexpectedBy: s.snapshot(s.odd), AllActs: s.all.summary(), SteadyActs: s.steady.summary(),
		Latency: summaries(s.act), Owner: summaries(s.owner), Controls: s.snapshot(s.controls),
		Renewed: s.snapshot(s.renewals), Stuck: s.snapshot(s.stuck), Probes: s.probes.Load(), ProbesRefused: s.probesRefused.Load(),
		Inputs: s.inputs.Load(), Restarts: r.restarts(), Invariants: r.check.Results(),
	}
	rep.RenewedTotal = total(rep.Renewed)
	rep.Timeline = r.sampler.Samples()
	rep.Host = r.sampler.hostReport()
	if active > 0 {
		rep.ActsPerSecond = float64(rep.Acts) / active.Seconds()
	}
	rep.CPU = r.cpu.Seconds()
	start, end := r.runtime[0], r.runtime[1]
	if wait, gc, ok := end.since(start); ok {
		rep.RunWaitP99, rep.GCCPU, rep.GCCycles = wait, gc, end.cycles-start.cycles
		rep.GCAssistCPU = end.assist - start.assist
		rep.WithCollection, rep.WithoutCollection = r.sampler.splits()
		if rep.Acts > 0 {
			rep.AllocPerAct = float64(end.alloc-start.alloc) / float64(rep.Acts)
		}
	}
	if rep.Acts > 0 {
		rep.CPUPerAct = float64(r.cpu.Microseconds()) / float64(rep.Acts)
	}
	if r.cfg.Target != "" {
		rep.Target = r.cfg.Target
	}
	rep.Members = r.memberReports(active, r.cfg.Conversations)
	r.serverCPUReport(rep)
	if r.local != nil && r.local.logs != nil {
		for _, n := range r.local.logs.top(5) {
			r.note("%s", n)
		}
	}
	if r.local != nil {
		rep.Profiles = r.local.profiles()
		rep.InputsDriver = r.local.inputs()
		rep.Memory = r.memoryReport(r.cfg.Conversations)
		rep.Goroutines = r.mem.goroutines
	}
	r.errMu.Lock()
	defer r.errMu.Unlock()
	rep.TransportErrors = append([]string(nil), r.errSeen...)
	rep.Notes = append(rep.Notes, r.notes...)
	if r.hands != nil {
		rep.Hands = r.hands.report(rep.Active)
	}
	return rep
}

func (r *run) memoryReport(n int) *MemoryReport {
	m := r.mem
	per := func(v uint64) float64 { return float64(v) / float64(max(n, 1)) }
	end := m.end
	if end == 0 {
		end = m.quarter
	}
	return &MemoryReport{HeapBase: m.base, HeapQuarter: m.quarter, HeapEnd: m.end,
		HeapPerConv: per(end - min(m.base, end)), RSS: m.rss, RSSPerConv: per(m.rss),
		GoroutinesPerConv: float64(m.goroutines) / float64(max(n, 1)), SimTemplates: m.templates}
}

func summaries(m map[string]*hist) map[string]Summary {
	out := map[string]Summary{}
	for k, h := range m {
		if h.n.Load() > 0 {
			out[k] = h.summary()
		}
	}
	return out
}
