package controller

import (
	"context"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/controller/tasks"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// statusWait bounds the mode's status report.
const statusWait = 2 * time.Second

// identify names the agent holding a token.
func (a *Actor) identify(m *messages.Identify) *messages.Identity {
	ag, e := a.agents.Call(&messages.ToolCall{TokenHash: m.TokenHash, Tool: messages.ToolStatus})
	if e != nil && e.Code == messages.CodeUnauthorized {
		return &messages.Identity{Error: e}
	}
	return &messages.Identity{Agent: ag.Name}
}

// tool checks an agent call the gateway could not route itself and passes
// it to the conversation's session, which answers the caller directly.
func (a *Actor) tool(ctx actor.Context, m *messages.ToolCall) {
	ag, e := a.agents.Call(m)
	if e != nil {
		ctx.Respond(messages.FailWith(e))
		return
	}
	if m.Tool == messages.ToolTask {
		a.askTask(ctx, m, ag)
		return
	}
	if e := a.notYours(m.Conversation, ag.ID); e != nil {
		ctx.Respond(messages.FailWith(e))
		return
	}
	e2 := a.sessions[m.Conversation]
	if m.Tool == messages.ToolStatus && (a.stopped() || e2 == nil) {
		a.status(ctx, m.Conversation)
		return
	}
	if e := a.refusal(m); e != nil {
		ctx.Respond(messages.FailWith(e))
		return
	}
	if e2 == nil {
		ctx.Respond(messages.FailWith(a.tasks.NoTask(m.Conversation)))
		return
	}
	if name, finder, ok := a.appByName(m.Act); ok {
		a.findApp(ctx, m, name, finder)
		return
	}
	if e, asked := a.checkApp(m.Conversation, ag.Name, m.Act); e != nil {
		if asked != nil {
			a.cfg.Bus.Publish(&messages.ApprovalRequested{Request: *asked})
		}
		ctx.Respond(messages.FailWith(e))
		return
	}
	v := a.sites.Check(m.Conversation, ag.Name, m.Act)
	if v.Asked != nil {
		a.cfg.Bus.Publish(&messages.ApprovalRequested{Request: *v.Asked})
	}
	if v.Refusal != nil {
		ctx.Respond(messages.FailWith(a.siteRefused(ctx, m, ag, v.URL, v.Refusal)))
		return
	}
	ctx.RequestWithCustomSender(e2.pid, &messages.AgentCall{Call: m, Agent: ag.Name, SitesApproved: true,
		AppOnce: a.appOnce(m.Conversation, m.Act)}, ctx.Sender())
}

// siteRefused records a refusal of the URL rules that is kept (air-gap's,
// a secret in the URL), at the agent's refusal rate, and returns what the
// agent is told.
func (a *Actor) siteRefused(ctx actor.Context, m *messages.ToolCall, ag ledger.Agent, url string, e *messages.Error) *messages.Error {
	if messages.RecordedRefusal(e.Code) && a.cfg.Limits.Refusal(ag.ID) {
		ledger.RecordRefusal(ctx, a.cfg.Ledger, ledger.Refusal{Conversation: m.Conversation, Agent: ag.Name,
			Action: "navigate", URL: url, Code: string(e.Code), At: a.cfg.Now()})
	}
	if e.Code == messages.CodeAirGap {
		r := reachNow(a.cfg.Reach)
		return messages.AirGapWayBack(e, a.surfaceOf(m.Conversation).Over(m.Surface), r != nil && r.AirGapByEnv)
	}
	return e
}

// status answers browser.status without asking a session, off the
// mailbox: the mode's report may read the disk. While the owner's Stop
// holds, a conversation that has a session says it is stopped, as every
// other surface does; one without says it has none.
func (a *Actor) status(ctx actor.Context, conv string) {
	state, stopped := messages.StateNoSession, a.stopped()
	if a.sessions[conv] != nil && stopped {
		state = messages.StateStopped
	}
	r := &messages.NoSessionStatus{Mode: a.cfg.Mode.Name(), Stopped: stopped,
		Conversation: conv, State: state, Reach: reachNow(a.cfg.Reach)}
	if t, ok := a.tasks.Get(conv); ok {
		v := tasks.View(t)
		r.Task, r.TaskState, r.Ended = v.Description, v.State, v.EndReason
	}
	mode, to, sys := a.cfg.Mode, ctx.Sender(), ctx.ActorSystem()
	go func() {
		c, cancel := context.WithTimeout(context.Background(), statusWait)
		defer cancel()
		st := mode.Status(c)
		r.Browser = &st
		sys.Root.Send(to, &messages.ToolResult{Result: r})
	}()
}

// reachNow is what reach says now, or nil when there is none.
func reachNow(reach func() *messages.Reach) *messages.Reach {
	if reach == nil {
		return nil
	}
	return reach()
}

// refusal is why no new work runs now (the owner's Stop, or a cluster
// member that cannot reach etcd), or nil.
func (a *Actor) refusal(m *messages.ToolCall) *messages.Error {
	if a.stopped() {
		return a.surfaceOf(m.Conversation).Over(m.Surface).Stopped()
	}
	return a.clusterDown()
}
