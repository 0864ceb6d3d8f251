package actors

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// Backoff is a one-for-one supervision strategy: a failing child is restarted
// after a delay that doubles with each failure inside Window (from Initial up
// to Max); past MaxRestarts failures inside Window it is stopped and the
// failure escalated to the supervisor's own parent.
//
// protoactor's own exponential strategy grows linearly and never gives up,
// which is why this one exists.
type Backoff struct {
	Initial     time.Duration
	Max         time.Duration
	MaxRestarts int
	Window      time.Duration
	Escalate    bool
	Log         *slog.Logger
	// OnRestart, when set, is told of every restart (tests and load counters).
	OnRestart func(child *actor.PID, reason any)
}

var _ actor.SupervisorStrategy = (*Backoff)(nil)

// DefaultBackoff is what buddi's supervisors use; it does not escalate.
func DefaultBackoff(log *slog.Logger) *Backoff {
	return &Backoff{Initial: time.Millisecond, Max: 2 * time.Second,
		MaxRestarts: 5, Window: time.Minute, Log: log}
}

// HandleFailure decides for one failed child.
func (b *Backoff) HandleFailure(_ *actor.ActorSystem, sup actor.Supervisor, child *actor.PID,
	rs *actor.RestartStatistics, reason any, message any) {
	if rs.NumberOfFailures(b.Window) == 0 {
		rs.Reset()
	}
	rs.Fail()
	n := rs.NumberOfFailures(b.Window)
	if n > b.MaxRestarts {
		b.Log.Error("actor failed too often; stopping it", "actor", child.Id,
			"failures", n, "window", b.Window, "escalate", b.Escalate, "reason", fmt.Sprint(reason))
		sup.StopChildren(child)
		if b.Escalate {
			sup.EscalateFailure(&GaveUp{Child: child.Id, Reason: reason}, message)
		}
		return
	}
	delay := b.delay(n)
	b.Log.Error("actor panicked; restarting", "actor", child.Id, "attempt", n,
		"delay", delay, "reason", fmt.Sprint(reason), "message", fmt.Sprintf("%T", message))
	time.AfterFunc(delay, func() {
		if b.OnRestart != nil {
			b.OnRestart(child, reason)
		}
		sup.RestartChildren(child)
	})
}

func (b *Backoff) delay(failures int) time.Duration {
	d := b.Initial
	for i := 1; i < failures && d < b.Max; i++ {
		d *= 2
	}
	return min(d, b.Max)
}

// GaveUp is the reason a supervisor escalates with when a child failed past
// its restart cap.
type GaveUp struct {
	Child  string
	Reason any
}

func (g *GaveUp) Error() string { return fmt.Sprintf("%s failed too often: %v", g.Child, g.Reason) }
