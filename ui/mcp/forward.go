package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/buddi-dev/buddi/apiclient"
	"github.com/buddi-dev/buddi/messages"
)

// forwarder posts tool calls to the daemon's agent API through the API
// client: the [Caller] of `buddi mcp`.
type forwarder struct {
	client  *apiclient.Client
	timeout time.Duration
}

var _ Caller = (*forwarder)(nil)

// Call forwards one tool call and returns the daemon's result. Every failure
// is a *messages.Error, ready for the agent.
func (f *forwarder) Call(ctx context.Context, token, tool, conv string, input json.RawMessage) (json.RawMessage, error) {
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	raw, err := f.client.Tool(ctx, token, tool, conv, input)
	if err == nil {
		return raw, nil
	}
	var me *messages.Error
	if !errors.As(err, &me) {
		return nil, errInternal()
	}
	switch me.Code {
	case messages.CodeUnauthorized:
		return nil, errUnauthorized()
	case messages.CodeTimeout:
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, errTimeout(f.timeout)
		}
	}
	return nil, me
}

func (f *forwarder) closeIdle() { f.client.CloseIdle() }
