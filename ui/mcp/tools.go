package mcp

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/buddi-dev/buddi/messages"
)

func (s *Server) addTools(reach *messages.Reach) error {
	notDestructive, closed := false, false
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        ToolStatus,
		Title:       "Browser status",
		Description: statusDoc,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &closed},
	}, handle[statusArgs](s, ToolStatus))

	if err := s.addAct(reach); err != nil {
		return err
	}

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
		conv := s.moves.follow(token, s.conversationOf(req, in))
		raw, err := s.calls.Call(ctx, token, tool, conv, input)
		if err != nil {
			return failure(err), nil, nil
		}
		if t, ok := any(in).(taskArgs); ok && t.MoveTo != "" {
			s.moves.note(token, conv, t.MoveTo) // the conversation moved: follow it
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

// addAct registers browser_act with a description that says reach.
func (s *Server) addAct(reach *messages.Reach) error {
	schema, err := actSchema()
	if err != nil {
		return err
	}
	doc := actDoc(reach)
	mcp.AddTool(s.mcp, &mcp.Tool{
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
