package loadtest

import "fmt"

// Invariant names one property a run must keep.
type Invariant int

// The invariants, in the order the report lists them.
const (
	NoReplay Invariant = iota
	NoInputWhileHeld
	StopNotLost
	NothingAfterStop
	FlatMemory
	StaleRefused
	HandFrames
	numInvariants
)

var invariantText = [numInvariants]string{
	NoReplay:         "every input reaching a page matches exactly one accepted act (nothing replayed after a crash or take-over)",
	NoInputWhileHeld: "no input reaches a page while its session is paused, taken over or stopped",
	StopNotLost:      "after an acknowledged Stop every act fails with stopped and /healthz says stopped, until resume-all",
	NothingAfterStop: "after stop-all no act succeeds",
	FlatMemory:       "heap per conversation does not grow with the run's length",
	StaleRefused:     "clicks naming an old observation or an unknown ref are refused",
	HandFrames:       "remote hand frames stay ordered and bounded",
}

var invariantKey = [numInvariants]string{
	NoReplay: "no_replay", NoInputWhileHeld: "no_input_while_held", StopNotLost: "stop_not_lost",
	NothingAfterStop: "nothing_after_stop", FlatMemory: "flat_memory", StaleRefused: "stale_refused",
	HandFrames: "hand_frames",
}

func (i Invariant) String() string { return invariantKey[i] }

// Result is one invariant's verdict.
type Result struct {
	Name       string   `json:"name"`
	Text       string   `json:"text"`
	Status     string   `json:"status"` // pass, fail, n/a
	Checked    int64    `json:"checked"`
	Violations int64    `json:"violations"`
	Note       string   `json:"note,omitempty"`
	Examples   []string `json:"examples,omitempty"`
}

// Passed reports whether no applicable invariant failed.
func Passed(rs []Result) bool {
	for _, r := range rs {
		if r.Status == statusFail {
			return false
		}
	}
	return true
}

const (
	statusPass = "pass"
	statusFail = "fail"
	statusNA   = "n/a"
)

func (r Result) String() string {
	s := fmt.Sprintf("%-20s %-4s checked %d, violations %d", r.Name, r.Status, r.Checked, r.Violations)
	if r.Note != "" {
		s += " (" + r.Note + ")"
	}
	return s
}
