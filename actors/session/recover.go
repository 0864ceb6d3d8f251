package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/messages"
)

// recoverable are the refusals decided before any input that the page may
// have moved under: the agent's evidence is out of date, so the refusal
// brings a new observation with it, and the agent acts again in one step
// instead of observing first.
var recoverable = map[messages.Code]bool{
	messages.CodeStaleObservation: true,
	messages.CodeStaleRef:         true,
	messages.CodeAmbiguous:        true,
	messages.CodeTargetMiss:       true,
}

// recover starts an observation whose result answers replyTo with e and the
// fresh evidence. It does nothing (false) when e is not such a refusal, the
// session is not ready (a pause rule fired), it has no tab yet, or no step
// is left for the observation.
func (a *Actor) recover(ctx actor.Context, e *messages.Error, replyTo *actor.PID) bool {
	if _, ok := a.st.(*ready); !ok || !recoverable[e.Code] || a.tabs == nil || a.stepsLeft() < 1 {
		return false
	}
	in := &messages.ActInput{Action: "observe"}
	a.rec.StepsUsed++
	a.dispatch(ctx, in, nil, replyTo, e) // a reading needs no action
	a.persistSteps()
	return true
}

// recovered answers a refusal with the observation fetched for it, which
// becomes the latest; when that observation failed, the refusal goes alone.
func (a *Actor) recovered(ctx actor.Context, w *working, d *done) {
	e := *w.recovering
	if d.err == nil {
		res := a.apply(ctx, w.in, d)
		if obs, ok := res.Result.(*messages.Observation); ok {
			e.Observation = obs
			e.Message += " The observation that comes with this answer shows the page now: act on it."
		}
	} else {
		a.failed(ctx, w.in, d.err)
		e.Message += " Observe again before acting."
	}
	a.stepTaken(w, d, &messages.ToolResult{Result: e.Observation})
	ctx.Send(w.replyTo, messages.FailWith(&e))
	a.show()
}
