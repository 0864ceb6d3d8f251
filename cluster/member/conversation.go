package member

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/buddi-dev/buddi/actors/grain"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/cluster/shared"
	"github.com/buddi-dev/buddi/messages"
)

// conversation is one conversation's grain on the member that holds it
// (actors/grain runs it). On its first call it claims the conversation
// for this member in etcd (claim.go); when the conversation was held before and its
// session does not run here (its member was lost, or this member
// restarted: a member in a cluster resumes no session when it starts), the
// task and the steps it has used come from etcd and the agent's next act
// answers restarted: the page and the refs start afresh, the step count
// goes on, and nothing is replayed. A member that knows etcd is away
// claims nothing: new work is refused at once.
type conversation struct {
	mem     *Self
	conv    string
	claimed bool
	moved   *ledger.Task // a task to adopt from a lost member, until it is
	used    int          // the steps it had used, as etcd holds them
	restart bool         // the next act answers restarted
	// lost is set when a call found the conversation claimed by another
	// member: this activation is not its door any more and stops.
	lost atomic.Bool

	// steps is the count etcd holds, as this member last wrote or read
	// it; Run's goroutines write it, one at a time.
	steps struct {
		sync.Mutex
		shared.TaskSteps
	}
}

var _ grain.Conversation = (*conversation)(nil)

// Arrive turns away a control that names nothing, and answers an agent's
// first act after a move; the claim came before (claim.go).
func (g *conversation) Arrive(msg any) any {
	if g.lost.Load() {
		return &grainAnswer{Error: messages.Errorf(messages.CodeRestarted, "Conversation %s is moving to another member of the cluster and this call did not run; send it again.", g.conv)}
	}
	switch m := msg.(type) {
	case *grainTool:
		if g.restart && m.Call.Tool == messages.ToolAct {
			g.restart = false
			return &grainAnswer{Error: movedError(g.conv)}
		}
	case *grainOwner:
		if m.msg() == nil {
			return &grainAnswer{Error: &messages.Error{Code: messages.CodeBadInput, Message: "The control names nothing to do."}}
		}
	default:
		return &grainAnswer{Error: messages.Errorf(messages.CodeInternal, "A conversation's grain was sent %T.", msg)}
	}
	return nil
}

// Deadline is the caller's, as the call carries it.
func (g *conversation) Deadline(msg any) time.Time {
	switch m := msg.(type) {
	case *grainTool:
		return m.Deadline
	case *grainOwner:
		return m.Deadline
	}
	return time.Time{}
}

// Run runs the call through this member's own actors.
func (g *conversation) Run(c context.Context, msg any) any {
	switch m := msg.(type) {
	case *grainTool:
		ans := answerOf(g.mem.parts.Gateway.Tool(c, m.Call))
		if e := g.keepSteps(c); e != nil {
			return &grainAnswer{Error: e}
		}
		return ans
	case *grainOwner:
		if m.Hand != nil {
			return g.mem.openHandHere(c, m.Hand)
		}
		r := g.mem.parts.Gateway.Owner(c, m.msg())
		return answerOf(&messages.ToolResult{Result: r.Result, Error: r.Error}, nil)
	}
	return nil
}

// Late is the answer to a call that did not finish before its deadline.
func (g *conversation) Late() any {
	return &grainAnswer{Error: messages.Errorf(messages.CodeTimeout, "Conversation %s did not answer before the call's deadline.", g.conv)}
}

// Keeps gives the check of whether the conversation has anything on this
// member: a task to adopt, a session, or a task pending or running (a
// pending task's answer must find it here).
func (g *conversation) Keeps() func() bool {
	if g.moved != nil {
		return func() bool { return true }
	}
	return func() bool {
		if g.mem.parts.Routes.Holds(g.conv) {
			return true
		}
		t, ok, err := g.mem.parts.Store.Task(g.conv)
		return err != nil || (ok && (t.State == ledger.TaskPending || t.State == ledger.TaskActive))
	}
}

// Lost reports whether a call found the conversation claimed by another
// member (keepSteps): the grain stops, and the next call goes to the
// activation placement finds or makes, which claims it again.
func (g *conversation) Lost() bool { return g.lost.Load() }

// answerOf is a local answer as it crosses members.
func answerOf(tr *messages.ToolResult, e *messages.Error) *grainAnswer {
	if e != nil {
		return &grainAnswer{Error: e}
	}
	if tr.Error != nil || tr.Result == nil {
		return &grainAnswer{Error: tr.Error}
	}
	return &grainAnswer{local: tr.Result}
}

// lostError answers a call whose step ran on an activation that found the
// conversation claimed by another member: its answer is withheld.
func lostError(conv string) *messages.Error {
	return messages.Errorf(messages.CodeRestarted, "Conversation %s moved to another member of the cluster while this call ran, so its answer is not given; observe again.", conv)
}

// movedError is the first act's answer after a conversation moved.
func movedError(conv string) *messages.Error {
	return messages.Errorf(messages.CodeRestarted, "The member of the cluster that held conversation %s was lost or restarted, so its session started again on another member or afresh, with the same task and the steps it had left; nothing was replayed and what you observed is gone: observe again.", conv)
}

// keepSteps writes the steps the conversation's task has used to etcd
// before a call's answer goes back, when the call used any: every step an
// agent is answered is counted where the conversation moves next, so a
// move never hands out a budget again. A member killed before it wrote
// loses the agent only the step whose answer it never gave. When etcd does
// not take the count, the answer is withheld: the step ran and counts
// here, but the agent does not get what etcd might not know of.
func (g *conversation) keepSteps(c context.Context) *messages.Error {
	s := g.mem.parts.Routes.Session(g.conv)
	if s == nil {
		return nil // no session here (it ended, or never started): nothing to count
	}
	used := s.Shown().StepsUsed
	t, ok, err := g.mem.parts.Store.Task(g.conv)
	if err != nil || !ok {
		return nil // the task is gone with its session
	}
	g.steps.Lock()
	defer g.steps.Unlock()
	if g.steps.Task.Equal(t.Created) && used <= g.steps.Used {
		return nil // etcd holds this count already, or a larger one
	}
	err = g.mem.shared.PutSteps(c, g.conv, g.mem.memberID, shared.TaskSteps{Task: t.Created, Used: used})
	switch {
	case errors.Is(err, shared.ErrNotHome):
		g.mem.log.Warn("another member claimed the conversation while this one ran its session; this activation stops and the next call goes where the cluster places it", "conversation", g.conv)
		g.lost.Store(true)
		return lostError(g.conv)
	case err != nil:
		return messages.CodeClusterDown.Err("this step ran but its count could not be written there, so its answer is withheld: " + err.Error())
	}
	g.steps.TaskSteps = shared.TaskSteps{Task: t.Created, Used: used}
	return nil
}
