package loadtest

import (
	"context"
	"fmt"
	"time"

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
}

// runIdle starts cfg.Idle sessions, observes each once, measures the heap
// per idle session, then releases them all and checks none failed.
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
	var base, started, observed, released uint64
	if r.local != nil {
		base = settledHeap()
	}
	r.start = time.Now()
	done := make(chan struct{})
	go r.progress(done)
	t := time.Now()
	ir.StartFailed = parallel(n, 32, func(i int) bool { return r.startTask("task_start", r.agents[i].name, r.agents[i].conv, maxSteps) == "" })
	ir.StartSeconds = time.Since(t).Seconds()
	if r.local != nil {
		started = settledHeap()
	}
	ir.ObserveFailed = parallel(n, 32, func(i int) bool {
		a := r.agents[i]
		code, _ := a.send(&act{action: "observe"}, false)
		return code == ""
	})
	if r.local != nil {
		observed = settledHeap()
		ir.RSSPerSession = float64(rss()) / float64(n)
	}
	ir.Goroutines = runtimeGoroutines(r)
	t = time.Now()
	ir.ReleaseFailed = parallel(n, 32, func(i int) bool {
		return r.ownerCall("release", "POST", "/api/browser/release", messages.OwnerBody{Conversation: r.agents[i].conv}) == ""
	})
	ir.ReleaseSeconds = time.Since(t).Seconds()
	ir.SessionsLeft = r.waitSessions(ctx, 0)
	close(done)
	if r.local != nil {
		released = settledHeap()
		per := func(a, b uint64) float64 { return (float64(a) - float64(b)) / float64(n) }
		ir.HeapPerStarted, ir.HeapPerObserved, ir.HeapLeftPerConv = per(started, base), per(observed, base), per(released, base)
	}
	for i := Invariant(0); i < numInvariants; i++ {
		if i != HandFrames {
			r.check.NotApplicable(i, "not exercised by the idle test")
		}
	}
	rep := r.report()
	rep.Idle, rep.Memory, rep.Duration = ir, nil, rep.Active
	rep.Invariants = append(rep.Invariants, idleResult(ir))
	return rep, nil
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
