package loadtest

import (
	"context"
	"fmt"
	"time"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// IdleReport is the idle test: sessions started, observed once, held idle
// and released.
type IdleReport struct {
	Sessions        int     `json:"sessions"`
	StartFailed     int64   `json:"startFailed"`
	ObserveFailed   int64   `json:"observeFailed"`
	ReleaseFailed   int64   `json:"releaseFailed"`
	HeapPerStarted  float64 `json:"heapPerStartedSessionBytes"`  // task and actor, no tabs yet
	HeapPerObserved float64 `json:"heapPerObservedSessionBytes"` // with tabs and one observation
	HeapLeftPerConv float64 `json:"heapLeftPerReleasedBytes"`    // still held after release
	RSSPerSession   float64 `json:"rssPerSessionBytes"`
	Goroutines      int     `json:"goroutinesWhileIdle"`
	StartSeconds    float64 `json:"startSeconds"`
	ReleaseSeconds  float64 `json:"releaseSeconds"`
	SessionsLeft    int     `json:"sessionsLeftAfterRelease"`
	// Rounds are what each round left behind (in-process only).
	Rounds []IdleRound `json:"rounds,omitempty"`
}

// IdleRound is what one round of the idle test left behind, read after
// its release and, with a retention, after the ledger pruned it.
type IdleRound struct {
	HeapBytes      uint64 `json:"heapAfterReleaseBytes"`
	StoreLiveBytes uint64 `json:"storeLiveBytes"` // Pebble's live tables and unflushed write-ahead log
	StoreDiskBytes uint64 `json:"storeDiskBytes"`
	StoreRecords   int    `json:"storeRecords"` // records of every kind; -1 when they cannot be read
	// StoreRecordBytes is what those records are: their keys and values.
	// It is what a round is held to: Pebble's live size also counts
	// values written over since the last flush (still in the write-ahead
	// log), which a write landing just before the weighing moves by a
	// kilobyte or two.
	StoreRecordBytes uint64  `json:"storeRecordBytes"`
	PruneSeconds     float64 `json:"pruneSeconds,omitempty"` // how long after the release the prune was seen done
}

// runIdle starts cfg.Idle sessions, observes each once, measures the heap
// per idle session, then releases them all and checks none failed; it
// does so cfg.IdleRounds times in the same daemon, each round with
// conversations of its own.
func runIdle(ctx context.Context, cfg Config) (*Report, error) {
	cfg.Conversations, cfg.OwnerRate, cfg.CrashRate = cfg.Idle, 0, 0
	r, err := newRun(cfg, false)
	if err != nil {
		return nil, err
	}
	defer r.close()
	n := cfg.Idle
	if err := r.addAgents(n); err != nil {
		return nil, err
	}
	r.newAgents(n)
	ir := &IdleReport{Sessions: n}
	var base uint64
	if r.local != nil {
		base = settledHeap()
		r.idleProfile("base")
	}
	r.start = time.Now()
	done := make(chan struct{})
	go r.progress(done)
	stop := r.startSampler()
	for k := range max(cfg.IdleRounds, 1) {
		for _, a := range r.agents {
			a.conv = a.base
			if k > 0 {
				a.conv = fmt.Sprintf("%s-r%d", a.base, k+1)
			}
		}
		r.idleRound(ctx, ir, base, k == 0)
	}
	stop()
	close(done)
	for i := Invariant(0); i < numInvariants; i++ {
		if i != HandFrames {
			r.check.NotApplicable(i, "not exercised by the idle test")
		}
	}
	rep := r.report()
	rep.Idle, rep.Memory, rep.Duration = ir, nil, rep.Active
	rep.Invariants = append(rep.Invariants, idleResult(ir))
	if len(ir.Rounds) > 1 && r.local != nil && cfg.Base.Retention > 0 {
		rep.Invariants = append(rep.Invariants, flatResult(ir))
	}
	return rep, nil
}

// idleRound runs one round of the idle test; the first one's per-session
// figures go in ir (later rounds add only what they left behind).
func (r *run) idleRound(ctx context.Context, ir *IdleReport, base uint64, first bool) {
	n := ir.Sessions
	var started, observed uint64
	t := time.Now()
	failed := parallel(n, 32, func(i int) bool { return r.startTask("task_start", r.agents[i].name, r.agents[i].conv, maxSteps) == "" })
	ir.StartFailed += failed
	if first {
		ir.StartSeconds = time.Since(t).Seconds()
	}
	if r.local != nil && first {
		started = settledHeap()
	}
	ir.ObserveFailed += parallel(n, 32, func(i int) bool {
		code, _ := r.agents[i].send(&act{action: "observe"}, false)
		return code == ""
	})
	if r.local != nil && first {
		r.drained() // the pictures after each observation
		observed = settledHeap()
		ir.RSSPerSession = float64(rss()) / float64(n)
	}
	if first {
		ir.Goroutines = runtimeGoroutines(r)
	}
	t = time.Now()
	ir.ReleaseFailed += parallel(n, 32, func(i int) bool {
		return r.ownerCall("release", "POST", "/api/browser/release", messages.OwnerBody{Conversation: r.agents[i].conv}) == ""
	})
	if first {
		ir.ReleaseSeconds = time.Since(t).Seconds()
	}
	ir.SessionsLeft = max(ir.SessionsLeft, r.waitSessions(ctx, 0))
	for _, a := range r.agents {
		r.check.Forget(a.conv)
	}
	if r.local == nil {
		return
	}
	round := r.afterRelease(ctx, t)
	ir.Rounds = append(ir.Rounds, round)
	r.idleProfile(fmt.Sprintf("round%d", len(ir.Rounds)))
	if first {
		per := func(a, b uint64) float64 { return (float64(a) - float64(b)) / float64(n) }
		ir.HeapPerStarted, ir.HeapPerObserved, ir.HeapLeftPerConv = per(started, base), per(observed, base), per(round.HeapBytes, base)
	}
}

// idleProfile writes a heap profile to MemProfile+"."+name when the run
// was asked for profiles.
func (r *run) idleProfile(name string) {
	if r.cfg.MemProfile != "" {
		r.heapProfile(r.cfg.MemProfile + "." + name)
	}
}

// maxPruneWait is the longest retention a run waits out after a release.
const maxPruneWait = time.Minute

// afterRelease waits, when the daemon prunes within maxPruneWait, until no ended task is left
// in its store, the store's size has settled and the ledger forgot the
// round's write orders (idleSettle), then reads the heap and the store's
// size and records.
func (r *run) afterRelease(ctx context.Context, released time.Time) IdleRound {
	var round IdleRound
	st := r.local.d.Store()
	switch keep := r.cfg.Base.Retention; {
	case keep > maxPruneWait:
		// The owner's retention (7 days by default) would not end within
		// the run: the store is weighed as the release left it.
		r.note("the retention of %v is longer than a run waits for its prune (%v); set BUDDI_RETENTION shorter to weigh what pruning leaves", keep, maxPruneWait)
	case keep > 0:
		deadline := time.Now().Add(keep + 2*time.Minute)
		for r.local.endedTasks() != 0 && time.Now().Before(deadline) {
			if !sleep(ctx, 100*time.Millisecond) {
				break
			}
		}
		round.PruneSeconds = time.Since(released).Seconds()
		// The compaction after the prune gives the space back in the
		// background: wait for the next one to finish, or for two pruning
		// rounds (a quarter of keep each) and 2 s, when it finished
		// before this looked.
		seen, wait := st.Compactions(), time.Now().Add(keep/2+2*time.Second)
		for st.Compactions() == seen && time.Now().Before(wait) {
			if !sleep(ctx, 50*time.Millisecond) {
				break
			}
		}
		// The ledger remembers the order of the round's last writes (the
		// releases', the prune's) for ledger.OrderLife: a memory of
		// recent writes, not something the round left behind.
		sleep(ctx, r.cfg.idleSettle(keep))
	}
	round.HeapBytes = settledHeap()
	sz := st.Size()
	round.StoreLiveBytes, round.StoreDiskBytes = sz.Live, sz.Disk
	c, err := st.Contents()
	if err != nil {
		c.Records = -1
	}
	round.StoreRecords, round.StoreRecordBytes = c.Records, c.Bytes
	return round
}

// idleSettle is how long an idle round waits, after the prune, before it
// weighs the heap: the ledger's memory of write orders lapses a pruning
// round or two (a quarter of keep each) after OrderLife.
func (c Config) idleSettle(keep time.Duration) time.Duration {
	if c.IdleSettle != 0 {
		return max(c.IdleSettle, 0)
	}
	return ledger.OrderLife + keep/2 + 2*time.Second
}

// endedTasks counts the finished tasks the daemon's store still holds; -1
// when it cannot be read.
func (l *local) endedTasks() int {
	ts, err := l.d.Store().Tasks()
	if err != nil {
		return -1
	}
	n := 0
	for _, t := range ts {
		if t.State == messages.TaskEnded || t.State == messages.TaskRefused {
			n++
		}
	}
	return n
}

// idleFlat is how much a later idle round may leave behind beyond the
// first, as a fraction of it.
const idleFlat = 0.05

// flatResult checks every later round left the heap and the store within
// idleFlat of where the first left them.
func flatResult(ir *IdleReport) Result {
	first := ir.Rounds[0]
	res := Result{Name: "idle_flat", Text: fmt.Sprintf("after each release and the retention, heap, store and its records are within %.0f %% of the first round's", idleFlat*100),
		Checked: int64(3 * (len(ir.Rounds) - 1)), Status: statusPass}
	for k, rd := range ir.Rounds[1:] {
		for _, c := range []struct {
			what      string
			got, want float64
			text      func(float64) string
		}{
			{"heap", float64(rd.HeapBytes), float64(first.HeapBytes), fmtBytes},
			{"store", float64(rd.StoreRecordBytes), float64(first.StoreRecordBytes), fmtBytes},
			{"store's records", float64(rd.StoreRecords), float64(first.StoreRecords), func(n float64) string { return fmt.Sprint(n) }},
		} {
			if c.got > c.want*(1+idleFlat) {
				res.Violations++
				res.Examples = append(res.Examples, fmt.Sprintf("round %d left the %s at %s, the first at %s", k+2, c.what, c.text(c.got), c.text(c.want)))
			}
		}
	}
	if res.Violations > 0 {
		res.Status = statusFail
	}
	return res
}

// waitSessions waits up to 30 s for the daemon (every member) to hold at most want
// sessions and returns how many it holds.
func (r *run) waitSessions(ctx context.Context, want int) int {
	deadline := time.Now().Add(30 * time.Second)
	for {
		n, err := r.sessionCount()
		if err == nil && (n <= want || time.Now().After(deadline)) {
			return n
		}
		if !sleep(ctx, 50*time.Millisecond) || time.Now().After(deadline) {
			return -1
		}
	}
}

func idleResult(ir *IdleReport) Result {
	bad := ir.StartFailed + ir.ObserveFailed + ir.ReleaseFailed
	r := Result{Name: "idle_release", Text: "every idle session starts, observes and releases without error, and none is left",
		Checked: int64(3 * ir.Sessions), Violations: bad, Status: statusPass}
	if ir.SessionsLeft != 0 {
		r.Violations++
		r.Examples = append(r.Examples, fmt.Sprintf("%d sessions were still running after every release", ir.SessionsLeft))
	}
	if r.Violations > 0 {
		r.Status = statusFail
		r.Note = fmt.Sprintf("%d starts, %d observations and %d releases failed", ir.StartFailed, ir.ObserveFailed, ir.ReleaseFailed)
	}
	return r
}
