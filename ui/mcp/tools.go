package mcp

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/buddi-dev/buddi/messages"
)

const instructions = `buddi lends you a real browser that its owner watches and can take over.
Call browser.status first. Acting needs a task the owner granted: ask with browser.task, then check browser.status until it is active.
With a task, call browser.act with action observe, then act on the refs it returns, naming that observation's id; observe again after the page changes.
Errors come back as "<code>: <sentence>"; the sentence says what to do next.`

const statusDoc = `Report whether buddi's browser is available to you and the state of your session: whether a task is active or pending, steps and time left, whether the owner paused or took over, and the current page. Read-only; call it first, and again when an action is refused.`

const actDoc = `Observe and act in a real browser tab, within a task the owner granted (ask with browser.task).
Start with action "observe": it returns an observation id and refs such as e12 for the elements in view. Mutating actions (click, fill, select, press, hover, scroll, submit) must name the latest observation id in "observation" and the element in "target.ref"; once the page has changed, observe again, as an older id is refused with stale_ref.
navigate opens an absolute http or https URL; dom and console read the page; screenshot returns an image; script runs up to 10 steps in one call. Sites the owner has not approved, and some sites never, are refused with not_allowed.`

const taskDoc = `Ask the owner for a task: say in one or two sentences what you want to do in the browser, and optionally how many steps (at most 80) and minutes (at most 20) you need. The owner accepts or refuses; browser.act is refused until a task is active, so check browser.status for the answer.`

func (s *Server) addTools() error {
	notDestructive, closed := false, false
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        messages.ToolStatus,
		Title:       "Browser status",
		Description: statusDoc,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &closed},
	}, handle[statusArgs](s, messages.ToolStatus))

	schema, err := actSchema()
	if err != nil {
		return err
	}
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        messages.ToolAct,
		Title:       "Browser action",
		Description: actDoc,
		InputSchema: schema,
	}, handle[actArgs](s, messages.ToolAct))

	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        messages.ToolTask,
		Title:       "Ask for a browser task",
		Description: taskDoc,
		Annotations: &mcp.ToolAnnotations{DestructiveHint: &notDestructive, OpenWorldHint: &closed},
	}, handle[taskArgs](s, messages.ToolTask))
	return nil
}

// handle forwards one tool's calls to the daemon.
func handle[A args](s *Server, tool string) mcp.ToolHandlerFor[A, any] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in A) (*mcp.CallToolResult, any, error) {
		conv := in.conversation()
		if conv == "" {
			conv = s.conversation(req.Session)
		}
		raw, err := s.fwd.call(ctx, tool, conv, in.input())
		if err != nil {
			return failure(err), nil, nil
		}
		return render(raw), nil, nil
	}
}
