package controller

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// sweepEveryMax is the longest pause between two sweeps of the book of
// tasks, and the pause when finished tasks are kept for good.
const sweepEveryMax = time.Minute

// sweepDue is the timer message of the next sweep. Each arming sends its
// own, so a sweep armed by an instance a restart replaced is told apart.
type sweepDue struct{}

// sweeper is the controller's timer of sweeps: the book drops finished
// tasks past the retention even when no request comes that would sweep
// it, as the ledger prunes the store on its own timer.
type sweeper struct {
	timer *time.Timer
	due   *sweepDue // the message the timer armed last sends
}

// sweepEvery is the pause between two sweeps: a quarter of the retention,
// at least 10 ms and at most sweepEveryMax (the ledger's pace).
func (a *Actor) sweepEvery() time.Duration {
	if a.cfg.Retention <= 0 {
		return sweepEveryMax
	}
	return min(max(a.cfg.Retention/4, 10*time.Millisecond), sweepEveryMax)
}

// armSweep sends the next sweep to the controller after sweepEvery.
func (a *Actor) armSweep(ctx actor.Context) {
	sys, self, due := ctx.ActorSystem(), ctx.Self(), &sweepDue{}
	a.sweeper.due = due
	a.sweeper.timer = time.AfterFunc(a.sweepEvery(), func() { sys.Root.Send(self, due) })
}

// disarmSweep stops the timer; a sweep it sent already is ignored.
func (a *Actor) disarmSweep() {
	if a.sweeper.timer != nil {
		a.sweeper.timer.Stop()
	}
	a.sweeper.due = nil
}

// sweepTimed sweeps when m is the sweep this instance armed last, and
// arms the next.
func (a *Actor) sweepTimed(ctx actor.Context, m *sweepDue) {
	if m != a.sweeper.due || a.dead {
		return
	}
	a.sweep(ctx)
	a.armSweep(ctx)
}
