package mcp

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/buddi-dev/buddi/messages"
)

const instructions = `buddi lends you a real browser that its owner watches and can take over.
Call browser_status first. Acting needs a task the owner granted: ask with browser_task, then check browser_status until it is active.
With a task, call browser_act with action observe, then act on the refs it returns, naming that observation's id; observe again after the page changes.
Errors come back as "<code>: <sentence>"; the sentence says what to do next.`

const statusDoc = `Report whether buddi's browser is available to you and the state of your session: whether a task is active or pending, steps and time left, whether the owner paused or took over, and the current page. Read-only; call it first, and again when an action is refused.`

const actDoc = `Observe and act in a real browser tab, within a task the owner granted (ask with browser_task).
Start with action "observe": it returns an observation id and refs such as e12 for the elements in view. Mutating actions (click, fill, select, press, hover, scroll, submit) must name the latest observation id in "observation" and the element in "target.ref"; once the page has changed, observe again, as an older id is refused with stale_ref.
The observation shows what is on screen and an outline of the rest with refs: observe with "within" a ref reads that part, "fullPage" reads the whole page, and a read that does not fit ends with "continues", to send back as it is for the next part. Action "find" (text, role, name; exact) searches the whole page and returns matches with refs.
navigate opens an absolute http or https URL; dom and console read the page; screenshot returns an image; script runs up to 10 steps in one call. Sites the owner has not approved, and some sites never, are refused with not_allowed.`

const taskDoc = `Ask the owner for a task: say in one or two sentences what you want to do in the browser, and optionally how many steps (at most 80) and minutes (at most 20) you need. The owner accepts or refuses; browser_act is refused until a task is active, so check browser_status for the answer.`

func (s *Server) addTools() error {
	notDestructive, closed := false, false
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        ToolStatus,
		Title:       "Browser status",
		Description: statusDoc,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &closed},
	}, handle[statusArgs](s, ToolStatus))

	schema, err := actSchema()
	if err != nil {
		return err
	}
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        ToolAct,
		Title:       "Browser action",
		Description: actDoc,
		InputSchema: schema,
	}, handle[actArgs](s, ToolAct))

	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        ToolTask,
		Title:       "Ask for a browser task",
		Description: taskDoc,
		Annotations: &mcp.ToolAnnotations{DestructiveHint: &notDestructive, OpenWorldHint: &closed},
	}, handle[taskArgs](s, ToolTask))
	return nil
}

// handle runs one tool's calls through the server's Caller.
func handle[A args](s *Server, name string) mcp.ToolHandlerFor[A, any] {
	tool := apiName[name]
	return func(ctx context.Context, req *mcp.CallToolRequest, in A) (*mcp.CallToolResult, any, error) {
		token := s.tokenOf(req)
		if token == "" {
			return failure(errUnauthorized()), nil, nil
		}
		input, err := json.Marshal(in.input())
		if err != nil {
			return failure(errBadInput()), nil, nil
		}
		raw, err := s.calls.Call(ctx, token, tool, s.conversationOf(req, in), input)
		if err != nil {
			return failure(err), nil, nil
		}
		if tool == messages.ToolTask { // its answer tells the agent which tool to call next
			raw = json.RawMessage(clientNames.Replace(string(raw)))
		}
		return render(raw), nil, nil
	}
}

// conversationOf picks a call's conversation: the call's own argument, else
// the request's Buddi-Conversation header, else the server's fixed one,
// else the session's generated one.
func (s *Server) conversationOf(req *mcp.CallToolRequest, in args) string {
	if c := in.conversation(); c != "" {
		return c
	}
	if req.Extra != nil {
		if c := req.Extra.Header.Get(ConversationHeader); c != "" {
			return c
		}
	}
	if s.fixed != "" {
		return s.fixed
	}
	return s.conversation(req.Session)
}

// tokenOf is the agent token a call runs with: the server's own (stdio), or
// the one the request's bearer proved (HTTP).
func (s *Server) tokenOf(req *mcp.CallToolRequest) string {
	if s.token != "" {
		return s.token
	}
	if req.Extra == nil || req.Extra.TokenInfo == nil {
		return ""
	}
	token, _ := req.Extra.TokenInfo.Extra[tokenKey].(string)
	return token
}
