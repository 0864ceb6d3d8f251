package mcp

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/buddi-dev/buddi/messages"
)

func (s *Server) addTools(reach *messages.Reach) error {
	notDestructive, closed := false, false
	status, err := jsonschema.For[statusArgs](nil)
	if err != nil {
		return err
	}
	task, err := jsonschema.For[taskArgs](nil)
	if err != nil {
		return err
	}
	s.mcp.AddTool(&mcp.Tool{
		Name:        ToolStatus,
		Title:       "Browser status",
		Description: statusDoc,
		InputSchema: status,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &closed},
	}, handle[statusArgs](s, ToolStatus))

	if err := s.addAct(reach); err != nil {
		return err
	}

	s.mcp.AddTool(&mcp.Tool{
		Name:        ToolTask,
		Title:       "Ask for a browser task",
		Description: taskDoc,
		InputSchema: task,
		Annotations: &mcp.ToolAnnotations{DestructiveHint: &notDestructive, OpenWorldHint: &closed},
	}, handle[taskArgs](s, ToolTask))
	return nil
}

// handle runs one tool's calls through the server's Caller. It reads a
// call's arguments itself, as buddi reads a tool's input over HTTP: a
// field the tool does not take, a value of the wrong type or an action
// that is not one is refused here with bad_input and a sentence that says
// what to send, and nothing is forwarded. (The SDK's check against the
// schema answered with its validator's own text and no code.)
func handle[A args](s *Server, name string) mcp.ToolHandler {
	tool := apiName[name]
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		token := s.tokenOf(req)
		if token == "" {
			return failure(errUnauthorized()), nil
		}
		var in A
		if e := readArgs(tool, req.Params.Arguments, &in); e != nil {
			return failure(e), nil
		}
		input, err := json.Marshal(in.input())
		if err != nil {
			return failure(errBadInput()), nil
		}
		conv := s.moves.follow(token, s.conversationOf(req, in))
		raw, err := s.calls.Call(ctx, token, tool, conv, input)
		if err != nil {
			return failure(err), nil
		}
		if t, ok := any(in).(taskArgs); ok && t.MoveTo != "" {
			s.moves.note(token, conv, t.MoveTo) // the conversation moved: follow it
		}
		if tool == messages.ToolTask { // its answer tells the agent which tool to call next
			raw = json.RawMessage(clientNames.Replace(string(raw)))
		}
		return render(raw), nil
	}
}

// readArgs decodes a call's arguments (none is an empty object) into in,
// refusing what tool does not take, and checks them as buddi would.
func readArgs[A args](tool string, raw json.RawMessage, in *A) *messages.Error {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		raw = json.RawMessage(`{}`)
	}
	if err := messages.DecodeStrict(raw, in); err != nil {
		return messages.InputRefused(tool, err)
	}
	return (*in).check()
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

// addAct registers browser_act with a description that says reach.
func (s *Server) addAct(reach *messages.Reach) error {
	schema, err := actSchema()
	if err != nil {
		return err
	}
	doc := actDoc(reach)
	s.mcp.AddTool(&mcp.Tool{
		Name:        ToolAct,
		Title:       "Browser action",
		Description: doc,
		InputSchema: schema,
	}, handle[actArgs](s, ToolAct))
	s.mu.Lock()
	s.doc = doc
	s.mu.Unlock()
	return nil
}

// follow registers browser_act again when what the install lets the
// browser open has changed since (the owner turned air-gap on or off), so
// a session that starts after the change reads the description in force.
func (s *Server) follow(reach func() *messages.Reach) {
	if reach == nil {
		return
	}
	r := reach()
	s.mu.Lock()
	same := actDoc(r) == s.doc
	s.mu.Unlock()
	if !same {
		_ = s.addAct(r) // the schema built once already
	}
}
