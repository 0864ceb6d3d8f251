package controller

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/stop"
	"github.com/buddi-dev/buddi/messages"
)

// stopAnswerWait bounds how long the sessions take to drop their work and
// close their tabs.
const stopAnswerWait = 15 * time.Second

// stopped reports whether the owner's Stop is in force, as the stop actor
// decided it.
func (a *Actor) stopped() bool { return a.cfg.Stops.Load().Stop.Stopped }

// follow asks the stop actor to tell this instance every decision, first
// the one in force (a restart may have cut the fan-out of the last one).
func (a *Actor) follow(ctx actor.Context) {
	if a.cfg.Stop != nil {
		ctx.Request(a.cfg.Stop, &stop.Follow{})
	}
}

// stopChanged follows a decision of the stop actor: the routing table
// refuses agents at once while it holds, a resume is told to every
// session, and a Stop not fanned out yet is
// told to every session, which drops its action and closes its tabs; the
// stop actor is answered once all have.
func (a *Actor) stopChanged(ctx actor.Context, m *stop.Changed) {
	a.cfg.Routes.SetStopped(a.refusing())
	v := m.View
	if v.Gen < a.fanned {
		return // told already: only the cluster's part changed
	}
	a.fanned = v.Gen + 1
	from := ctx.Sender()
	if !v.Stop.Stopped {
		a.tellSessions(ctx, &messages.ResumeAll{}) // each starts afresh and says what the agent may do next
	}
	if !v.Stop.Stopped || len(a.sessions) == 0 {
		reply(ctx, from, &stop.Settled{Gen: v.Gen})
		return
	}
	n, closed := len(a.sessions), 0
	for _, e := range a.sessions {
		f := ctx.RequestFuture(e.pid, &messages.StopAll{}, stopAnswerWait)
		ctx.ReenterAfter(f, func(any, error) {
			if closed++; closed == n {
				reply(ctx, from, &stop.Settled{Gen: v.Gen, Sessions: n})
			}
		})
	}
}
