package loadtest

import (
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// The labels latency is kept under: each act's action, stale probes apart,
// and each owner control.
var (
	actLabels = []string{"observe", "find", "navigate", "back", "click", "fill", "select", "hover",
		"scroll", "press", "submit", "probe"}
	ownerLabels = []string{"task_start", "task", "takeover", "resume", "release", "stop", "resume_all", "healthz", "hand_take_over", "stop_everywhere"}
)

// Codes an agent expects in a healthy run: the daemon saying no for a
// reason the harness provoked.
var expectedCodes = map[string]bool{
	string(messages.CodeTakenOver): true, string(messages.CodeStopped): true, string(messages.CodePaused): true, string(messages.CodeBudgetSpent): true,
	string(messages.CodeNoTask): true, string(messages.CodeExpired): true, string(messages.CodeReleased): true, string(messages.CodeRestarted): true,
}

// stats are the run's counters. Latency histograms are fixed per label,
// so recording takes no lock; error codes share one small mutex.
type stats struct {
	acts, ok, requests, unexpected atomic.Int64
	probes, probesRefused          atomic.Int64
	inputs                         atomic.Int64
	established                    atomic.Int64 // conversations that have read their first observation
	all                            hist
	steady                         hist        // acts after the first quarter: no warm-up
	warm                           atomic.Bool // the first quarter is over
	act, owner                     map[string]*hist

	mu       sync.Mutex
	codes    map[string]int64 // every act answered with an error, by code
	odd      map[string]int64 // the unexpected ones among them
	renewals map[string]int64 // tasks renewed, by what ended the old one
	controls map[string]int64 // owner controls, by control and answer
	stuck    map[string]int64 // conversations whose new task kept failing, by code
}

func newStats() *stats {
	s := &stats{act: map[string]*hist{}, owner: map[string]*hist{},
		codes: map[string]int64{}, odd: map[string]int64{}, renewals: map[string]int64{}, controls: map[string]int64{},
		stuck: map[string]int64{}}
	for _, l := range actLabels {
		s.act[l] = &hist{}
	}
	for _, l := range ownerLabels {
		s.owner[l] = &hist{}
	}
	return s
}

// recordAct counts one answered act.
func (s *stats) recordAct(label string, d time.Duration, code string, probe, expected bool) {
	s.acts.Add(1)
	s.requests.Add(1)
	s.all.record(d)
	s.act[label].record(d)
	if s.warm.Load() {
		s.steady.record(d)
	}
	if probe {
		s.probes.Add(1)
		if code == string(messages.CodeStaleObservation) || code == string(messages.CodeStaleRef) {
			s.probesRefused.Add(1)
		}
	}
	if code == "" {
		s.ok.Add(1)
		return
	}
	if !expected {
		s.unexpected.Add(1)
		s.count(s.odd, code)
	}
	s.count(s.codes, code)
}

func (s *stats) recordOwner(label string, d time.Duration, code string) {
	s.requests.Add(1)
	s.owner[label].record(d)
	if code == "" {
		code = "ok"
	}
	s.count(s.controls, label+":"+code)
}

func (s *stats) renewed(why string) { s.count(s.renewals, why) }

// count adds one to m[k] and returns the new count.
func (s *stats) count(m map[string]int64, k string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	m[k]++
	return m[k]
}

func (s *stats) snapshot(m map[string]int64) map[string]int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int64, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func total(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}

func sortedKeys(m map[string]int64) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
