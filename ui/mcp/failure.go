package mcp

import (
	"fmt"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// Refusals of the /mcp endpoint, before any MCP message is read: the
// contract's codes, named here where they are used.
const (
	CodeHostRefused      = messages.CodeHostRefused
	CodeOriginRefused    = messages.CodeOriginRefused
	CodeMethodNotAllowed = messages.CodeMethodNotAllowed
)

// The sentences of failures this package says itself; the daemon's and the
// API client's own codes and sentences pass through unchanged.

func errUnauthorized() *messages.Error {
	return &messages.Error{Code: messages.CodeUnauthorized, Message: "The agent token was refused; " +
		"create one with `buddi agent add NAME` and pass it as --agent-token or BUDDI_AGENT_TOKEN."}
}

func errTimeout(d time.Duration) *messages.Error {
	return &messages.Error{Code: messages.CodeTimeout, Message: fmt.Sprintf(
		"buddi did not answer within %s; observe again before acting, as the page may have changed.", d)}
}

func errBadInput() *messages.Error {
	return &messages.Error{Code: messages.CodeBadInput, Message: "The tool input could not be encoded as JSON; check its values."}
}

func errInternal() *messages.Error {
	return &messages.Error{Code: messages.CodeInternal, Message: "buddi mcp failed to forward the call; see its log."}
}
