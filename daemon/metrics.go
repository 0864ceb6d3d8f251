package daemon

import (
	"time"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/metrics"
)

// sessionStates are the states /metrics always reports, zero or not.
var sessionStates = []string{messages.StateReady, messages.StateWorking, messages.StatePaused,
	messages.StateTakenOver, messages.StateClosing}

// startMetrics registers what the daemon's parts count and returns the
// hook sessions call for every act. The surfaces add their own (hand and
// dashboard connections).
func (w *wiring) metrics() func(string, messages.Code, time.Duration) {
	r, d := metrics.New(), w.d
	w.registry = r
	r.Process()
	r.GaugeFunc("buddi_sessions", "Browser sessions by state.", []string{"state"}, func(emit metrics.Emit) {
		n := map[string]int{}
		for _, s := range w.routes.Sessions() {
			n[s.State]++
		}
		for _, st := range sessionStates {
			emit(float64(n[st]), st)
		}
	})
	acts := r.Counter("buddi_acts_total", "Acts agents ran, by action and refusal code (empty when the act succeeded).", "action", "code")
	took := r.Histogram("buddi_act_seconds", "How long an act took, from dispatch to its result.", metrics.LatencyBuckets)
	r.CounterFunc("buddi_session_restarts_total", "Session actors restarted after a crash.", nil, func(emit metrics.Emit) {
		emit(float64(d.Restarts.Load()))
	})
	commits := r.Histogram("buddi_ledger_commit_seconds", "How long a ledger commit took (one fsync for a group of writes).", metrics.LatencyBuckets)
	d.store.OnCommit(commits.ObserveDuration)
	r.GaugeFunc("buddi_store_bytes", "The store's size: disk is its files, live what its records take (BUDDI_RETENTION prunes ended conversations).",
		[]string{"kind"}, func(emit metrics.Emit) {
			sz := d.store.Size()
			emit(float64(sz.Disk), "disk")
			emit(float64(sz.Live), "live")
		})
	r.CounterFunc("buddi_egress_refusals_total", "Connections the egress guard refused, by reason (the count starts again when air-gap is turned on or off).",
		[]string{"reason"}, func(emit metrics.Emit) {
			for reason, n := range d.egress.Refusals() {
				emit(float64(n), reason)
			}
		})
	if mem := d.member; mem != nil {
		r.CounterFunc("buddi_cluster_claims_total", "Conversations this member tried to claim in etcd (new work here: a first call, a task, a move).", nil, func(emit metrics.Emit) {
			emit(float64(mem.Claims()))
		})
	}
	return func(action string, code messages.Code, t time.Duration) {
		acts.With(action, string(code)).Inc()
		took.ObserveDuration(t)
	}
}
