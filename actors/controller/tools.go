package controller

import (
	"fmt"
	"slices"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// identify names the agent holding a token.
func (a *Actor) identify(m *messages.Identify) *messages.Identity {
	name, ok := a.byHash[m.TokenHash]
	if !ok {
		return &messages.Identity{Error: unrecognised()}
	}
	return &messages.Identity{Agent: name}
}

func unrecognised() *messages.Error {
	return &messages.Error{Code: "unauthorized", Message: "The agent token was not recognised; create one with `buddi agent add NAME`."}
}

// tool checks an agent call and forwards it to the conversation's session.
func (a *Actor) tool(ctx actor.Context, m *messages.ToolCall) {
	name, ok := a.byHash[m.TokenHash]
	if !ok {
		ctx.Respond(&messages.ToolResult{Error: unrecognised()})
		return
	}
	ag := a.agents[name]
	m.Agent = name
	if !granted(ag, m.Tool) {
		ctx.Respond(messages.Fail("not_granted", fmt.Sprintf("Agent %s has no grant for %s; the owner can re-add it with the browser.* grant.", name, m.Tool)))
		return
	}
	if m.Tool == messages.ToolTask {
		a.askTask(ctx, m)
		return
	}
	t := a.tasks[m.Conversation]
	if t != nil && t.Agent != name {
		ctx.Respond(messages.Fail("not_allowed", "This conversation belongs to another agent; use your own conversation id."))
		return
	}
	if m.Tool == messages.ToolStatus && (a.stop.Stopped || a.sessions[m.Conversation] == nil) {
		ctx.Respond(a.status(m.Conversation, t))
		return
	}
	if a.stop.Stopped {
		ctx.Respond(messages.Fail("stopped", "The owner stopped all browser access; wait until the owner resumes it (`buddi resume --all`)."))
		return
	}
	e := a.sessions[m.Conversation]
	if e == nil {
		ctx.Respond(noTask(m.Conversation, t))
		return
	}
	if r := a.gateSites(m); r != nil {
		ctx.Respond(r)
		return
	}
	ctx.Forward(e.pid)
}

func granted(ag *ledger.Agent, tool string) bool {
	return slices.Contains(ag.Grants, "browser.*") || slices.Contains(ag.Grants, tool)
}

func noTask(conv string, t *ledger.Task) *messages.ToolResult {
	switch {
	case t == nil:
		return messages.Fail("no_task", fmt.Sprintf("There is no task for conversation %s; ask the owner for one with browser.task and wait for it.", conv))
	case t.State == ledger.TaskPending:
		return messages.Fail("task_pending", "Your task request is waiting for the owner; wait until it is accepted.")
	case t.State == ledger.TaskRefused:
		return messages.Fail("task_refused", "The owner refused this task; do not ask again for the same thing.")
	case t.EndReason != "":
		return messages.Fail("no_task", t.EndReason+" Ask the owner for a new task.")
	}
	return messages.Fail("no_task", "This conversation's task has ended; ask the owner for a new task.")
}

// status answers browser.status without a session.
func (a *Actor) status(conv string, t *ledger.Task) *messages.ToolResult {
	r := map[string]any{"mode": a.cfg.Mode, "stopped": a.stop.Stopped, "conversation": conv,
		"state": "no_session"}
	if a.cfg.Browser != nil {
		r["browser"] = a.cfg.Browser()
	}
	if t != nil {
		r["task"] = t.Description
		r["taskState"] = t.State
		if t.EndReason != "" {
			r["ended"] = t.EndReason
		}
	}
	return &messages.ToolResult{Result: r}
}
