package controller

import (
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// ownerTask describes the task of the owner's own browsing.
const ownerTask = "The owner's own browsing, opened from the dashboard."

// navWait bounds the owner's navigation.
var navWait = messages.Spec("navigate").Deadline + 5*time.Second

// openBrowser is "Open a browser": the owner's own conversation (of the
// built-in agent OwnerAgent) gets a task from the owner, like any other,
// and its session navigates to the address the owner typed, under the same
// URL rules and guard as an agent's. The owner's typing is the owner's own
// answer about the site, so no approval is asked.
func (a *Actor) openBrowser(ctx actor.Context, m *messages.OpenBrowser) {
	conv := m.Conversation
	if conv == "" {
		conv = messages.OwnerAgent + "-" + shortID()
	}
	switch {
	case a.stopped():
		ctx.Respond(fail(&messages.Error{Code: messages.CodeStopped,
			Message: "All browser access is stopped; resume access first, then open a browser."}))
		return
	case a.tasks.Claimed(conv, messages.OwnerAgent):
		t, _ := a.tasks.Get(conv)
		ctx.Respond(fail(messages.Errorf(messages.CodeNotAllowed,
			"Conversation %s belongs to agent %s; Open a browser starts a conversation of your own.", conv, t.Agent)))
		return
	}
	owner := ctx.Sender()
	if a.sessions[conv] != nil {
		a.ownerNavigate(ctx, conv, m.URL, owner)
		return
	}
	t := a.tasks.Pending(ledger.Agent{ID: messages.OwnerAgent, Name: messages.OwnerAgent}, conv, ownerTask, 0, 0)
	a.activateThen(ctx, t, owner, messages.SurfaceDashboard, func(_ ledger.Task, e *messages.Error) {
		if e != nil {
			reply(ctx, owner, fail(e))
			return
		}
		a.ownerNavigate(ctx, conv, m.URL, owner)
	})
}

// ownerNavigate sends the owner's navigation to the session as a call of
// the owner's agent and answers the owner with its outcome.
func (a *Actor) ownerNavigate(ctx actor.Context, conv, url string, owner *actor.PID) {
	e := a.sessions[conv]
	if e == nil {
		reply(ctx, owner, fail(messages.CodeNoSession.Err(conv)))
		return
	}
	call := &messages.ToolCall{Tool: messages.ToolAct, Conversation: conv,
		Act: &messages.ActInput{Action: "navigate", URL: url}}
	f := ctx.RequestFuture(e.pid, &messages.AgentCall{Call: call, Agent: messages.OwnerAgent, SitesApproved: true}, navWait)
	a.after(ctx, f, owner, func(res any, err error) {
		reply(ctx, owner, opened(conv, res, err))
	})
}

func opened(conv string, res any, err error) *messages.OwnerReply {
	if err != nil {
		return fail(&messages.Error{Code: messages.CodeTimeout, Message: "The page did not answer in time; look at the Browser tab for where it got to."})
	}
	tr, ok := res.(*messages.ToolResult)
	if !ok {
		return fail(&messages.Error{Code: messages.CodeInternal, Message: "The session gave an unexpected answer."})
	}
	if tr.Error != nil {
		return fail(tr.Error)
	}
	o := &messages.Opened{Conversation: conv}
	if out, ok := tr.Result.(*messages.Outcome); ok {
		o.Outcome = *out
	}
	return &messages.OwnerReply{Result: o}
}

func shortID() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
