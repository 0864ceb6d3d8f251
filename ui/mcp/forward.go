package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// maxAnswer caps a daemon answer; a full-resolution screenshot is a few MB.
const maxAnswer = 64 << 20

// forwarder posts tool calls to the daemon's agent API: the [Caller] of
// `buddi mcp`.
type forwarder struct {
	base    string
	agent   string // User-Agent
	timeout time.Duration
	client  *http.Client
}

var _ Caller = (*forwarder)(nil)

type callBody struct {
	Conversation string          `json:"conversation"`
	Input        json.RawMessage `json:"input"`
}

type answer struct {
	OK     bool            `json:"ok"`
	Result json.RawMessage `json:"result"`
	Error  *messages.Error `json:"error"`
}

// Call forwards one tool call and returns the daemon's result. Every failure
// is a *messages.Error, ready for the agent.
func (f *forwarder) Call(ctx context.Context, token, tool, conv string, input json.RawMessage) (json.RawMessage, error) {
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	req, err := f.request(ctx, token, tool, conv, input)
	if err != nil {
		return nil, err
	}
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, f.transportError(ctx)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusUnauthorized {
		return nil, errUnauthorized()
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		return nil, f.transportError(ctx)
	}
	return f.decode(resp.StatusCode, raw)
}

func (f *forwarder) request(ctx context.Context, token, tool, conv string, input json.RawMessage) (*http.Request, error) {
	body, err := json.Marshal(callBody{Conversation: conv, Input: input})
	if err != nil {
		return nil, errBadInput()
	}
	u, err := url.JoinPath(f.base, "api", "tools", tool)
	if err != nil {
		return nil, errUnreachable(f.base)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return nil, errUnreachable(f.base)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", f.agent)
	return req, nil
}

// transportError says why a request failed before an answer was read.
func (f *forwarder) transportError(ctx context.Context) error {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return errTimeout(f.timeout)
	case ctx.Err() != nil:
		return errCancelled()
	default:
		return errUnreachable(f.base)
	}
}

func (f *forwarder) decode(status int, raw []byte) (json.RawMessage, error) {
	var a answer
	if len(raw) > maxAnswer || json.Unmarshal(raw, &a) != nil {
		return nil, errBadAnswer(f.base, status)
	}
	switch {
	case a.OK && status == http.StatusOK:
		if len(a.Result) == 0 {
			return json.RawMessage("null"), nil
		}
		return a.Result, nil
	case a.Error != nil && a.Error.Code != "":
		return nil, a.Error
	default:
		return nil, errBadAnswer(f.base, status)
	}
}

func (f *forwarder) closeIdle() { f.client.CloseIdleConnections() }
