package mcp

import (
	"fmt"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// Codes of failures this package finds itself; the daemon's own codes
// (stale_ref, paused, ...) pass through unchanged.
const (
	CodeDaemonUnreachable = "daemon_unreachable"
	CodeUnauthorized      = "unauthorized"
	CodeTimeout           = "timeout"
	CodeCancelled         = "cancelled"
	CodeBadAnswer         = "bad_answer"
	CodeBadInput          = "bad_input"
	CodeInternal          = "internal"
	// Refusals of the /mcp endpoint, before any MCP message is read.
	CodeHostRefused      = "host_refused"
	CodeOriginRefused    = "origin_refused"
	CodeMethodNotAllowed = "method_not_allowed"
)

func errUnreachable(baseURL string) *messages.Error {
	return &messages.Error{Code: CodeDaemonUnreachable, Message: fmt.Sprintf(
		"buddi is not running at %s; start it with `buddi serve` (or `make run`).", baseURL)}
}

func errUnauthorized() *messages.Error {
	return &messages.Error{Code: CodeUnauthorized, Message: "The agent token was refused; " +
		"create one with `buddi agent add NAME` and pass it as --agent-token or BUDDI_AGENT_TOKEN."}
}

func errTimeout(d time.Duration) *messages.Error {
	return &messages.Error{Code: CodeTimeout, Message: fmt.Sprintf(
		"buddi did not answer within %s; observe again before acting, as the page may have changed.", d)}
}

func errCancelled() *messages.Error {
	return &messages.Error{Code: CodeCancelled, Message: "The call was cancelled before buddi answered."}
}

func errBadAnswer(baseURL string, status int) *messages.Error {
	return &messages.Error{Code: CodeBadAnswer, Message: fmt.Sprintf(
		"%s answered HTTP %d without a tool answer; check that it is buddi and see its log.", baseURL, status)}
}

func errBadInput() *messages.Error {
	return &messages.Error{Code: CodeBadInput, Message: "The tool input could not be encoded as JSON; check its values."}
}

func errInternal() *messages.Error {
	return &messages.Error{Code: CodeInternal, Message: "buddi mcp failed to forward the call; see its log."}
}
