package messages

import "encoding/json"

// Tool names agents call.
const (
	ToolStatus = "browser.status"
	ToolAct    = "browser.act"
	ToolTask   = "browser.task"
)

// Tools lists the tool names agents may call.
var Tools = []string{ToolStatus, ToolAct, ToolTask}

// ToolCall is one agent request as the edge decoded it: authenticated by a
// token the actors resolve, its input checked against the contract.
type ToolCall struct {
	TokenHash    string // the agent's bearer token, hashed
	Conversation string
	Tool         string
	Input        json.RawMessage
	Act          *ActInput // decoded by the edge for browser.act
	// Surface is where the owner answers this call's refusals; the edge
	// sets it.
	Surface Surface
}

// AgentCall is a ToolCall its router let through to the conversation's
// session, with who made it. The call itself is shared, never changed.
type AgentCall struct {
	Call  *ToolCall
	Agent string
	// SitesApproved: the owner's site answers cover every navigation of the
	// call, page links included.
	SitesApproved bool
	// AppOnce is the app, by id, that the owner allowed once for this
	// conversation and that the call opens (Use my apps): the session keeps
	// it for the pictures that leave for a surface (Telegram).
	AppOnce string
}

// ToolResult answers a ToolCall: Result or Error is set.
type ToolResult struct {
	Result Answer
	Error  *Error
}

// Fail builds a ToolResult carrying an error.
func Fail(code Code, message string) *ToolResult {
	return &ToolResult{Error: &Error{Code: code, Message: message}}
}

// FailWith builds a ToolResult carrying e.
func FailWith(e *Error) *ToolResult { return &ToolResult{Error: e} }

// Identify asks which agent holds a token, before any tool call (the MCP
// endpoint refuses a session to an unknown token).
type Identify struct{ TokenHash string }

// Identity answers Identify: the agent's name, or Error (unauthorized).
type Identity struct {
	Agent string
	Error *Error
}
