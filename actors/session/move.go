package session

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// Move asks the session to answer to a new conversation id from now on.
// The controller sends it and stores the answer's record under the new id.
type Move struct{ To string }

// Moved answers Move: the session's record as it now stands (under the new
// id), or why it did not move. URL is where its active tab was.
type Moved struct {
	Record ledger.Session
	Task   ledger.Task
	URL    string
	State  string
	Err    *messages.Error
}

// receive hands an agent call or an owner control to the state, unless
// the call still names the id this session had before it moved.
func (a *Actor) receive(ctx actor.Context) {
	if m, ok := ctx.Message().(*messages.AgentCall); ok && a.movedAway(ctx, m) {
		return
	}
	a.st.receive(a, ctx)
}

// move renames the session: identity, task, steps used, expiry and a pause
// stay, the tabs stay open (the driver knows them by the id they opened
// under), and the evidence is void, so the next act must be a fresh
// observation. A session the owner holds, one that works or one that is
// stopped or ending does not move.
func (a *Actor) move(ctx actor.Context, m *Move) {
	if m.To == a.cfg.Conversation { // a way back the controller sent: already there
		ctx.Respond(&Moved{Record: a.record(), Task: a.task, URL: a.url, State: a.st.name()})
		return
	}
	if e := a.mayMove(); e != nil {
		ctx.Respond(&Moved{Err: e})
		return
	}
	from := a.cfg.Conversation
	a.cfg.Conversation = m.To
	a.cfg.Carry.moved(m.To)
	a.rec.Conversation, a.task.Conversation = m.To, m.To
	a.rec.Epoch++
	a.ev.void(fmt.Sprintf("the conversation moved from %s to %s", from, m.To))
	ctx.Respond(&Moved{Record: a.record(), Task: a.task, URL: a.url, State: a.st.name()})
	a.show()
}

// mayMove refuses a move in a state that must not change hands.
func (a *Actor) mayMove() *messages.Error {
	conv := a.cfg.Conversation
	switch a.st.(type) {
	case *ready, *paused:
		return nil
	case *working:
		return messages.Errorf(messages.CodeBusy, "An action of conversation %s is still running; move it once that action answered.", conv)
	case *takenOver, *handingBack:
		return messages.Errorf(messages.CodeTakenOver, "The owner has taken over conversation %s; it moves only after the owner hands it back.", conv)
	case *stopped:
		return messages.Errorf(messages.CodeStopped, "All browser access is stopped, so conversation %s cannot move; resume access first.", conv)
	default:
		return messages.CodeNoSession.Err(conv)
	}
}

// movedAway refuses a call that still names the id this session had: it
// reached the session before the controller stopped routing the old id.
func (a *Actor) movedAway(ctx actor.Context, m *messages.AgentCall) bool {
	if m.Call.Conversation == "" || m.Call.Conversation == a.cfg.Conversation {
		return false
	}
	ctx.Respond(messages.FailWith(messages.MovedAway(m.Call.Conversation, a.cfg.Conversation)))
	return true
}
