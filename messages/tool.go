package messages

import "encoding/json"

// Tool names agents call.
const (
	ToolStatus = "browser.status"
	ToolAct    = "browser.act"
	ToolTask   = "browser.task"
)

// ToolCall is one agent request, authenticated at the edge.
type ToolCall struct {
	TokenHash    string // the agent's bearer token, hashed; the controller resolves it
	Agent        string // filled in by the controller
	Conversation string
	Tool         string
	Input        json.RawMessage
	Act          *ActInput // decoded by the edge for browser.act
	// SitesApproved is set by the controller once the owner's site answers
	// cover every navigation of the call, page links included.
	SitesApproved bool
}

// Identify asks which agent holds a token, before any tool call (the MCP
// endpoint refuses a session to an unknown token).
type Identify struct{ TokenHash string }

// Identity answers Identify: the agent's name, or Error (unauthorized).
type Identity struct {
	Agent string
	Error *Error
}

// ToolResult answers a ToolCall: either Result or Error is set.
type ToolResult struct {
	Result any
	Error  *Error
}

// Error is what an agent or the owner reads: a stable code and one sentence.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Fail builds a ToolResult carrying an error.
func Fail(code, message string) *ToolResult {
	return &ToolResult{Error: &Error{Code: code, Message: message}}
}
