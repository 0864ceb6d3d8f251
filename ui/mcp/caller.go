package mcp

import (
	"context"
	"encoding/json"
)

// Caller runs one agent tool call (tool is the agent API's name, such as
// browser.act) for the agent holding token. It returns the tool's result,
// or a *messages.Error ready for the agent.
type Caller interface {
	Call(ctx context.Context, token, tool, conversation string, input json.RawMessage) (json.RawMessage, error)
}

// Backend is what the /mcp endpoint of `buddi serve` calls into: the same
// path POST /api/tools/<tool> takes, without a second trip over HTTP.
type Backend interface {
	Caller
	// Identify names the agent that holds token, or returns a
	// *messages.Error (code unauthorized when no agent holds it).
	Identify(ctx context.Context, token string) (agent string, err error)
}
