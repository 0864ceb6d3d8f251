package loadtest

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/buddi-dev/buddi/apiclient"
	"github.com/buddi-dev/buddi/messages"
)

// client calls one daemon's HTTP API through the API client's fast
// transport: kept-alive connections, one per concurrent caller, so the
// harness is never what limits the run. It never retries: a retried act
// would be a replay the harness caused itself.
type client struct {
	api *apiclient.Client
}

func newClient(target string, conns int, timeout time.Duration) (*client, error) {
	return dial(target, apiclient.WithFast(conns, timeout))
}

// newPipelined is a client whose calls share conns pipelined connections.
func newPipelined(target string, conns int, timeout time.Duration) (*client, error) {
	return dial(target, apiclient.WithPipeline(conns, timeout))
}

func dial(target string, tr apiclient.Option) (*client, error) {
	api, err := apiclient.New(target, tr, apiclient.WithUserAgent("buddi-loadtest"))
	if err != nil {
		return nil, fmt.Errorf("the target %q is not an http(s) URL such as http://127.0.0.1:7777", target)
	}
	return &client{api: api}, nil
}

// errTransport is a call that got no API answer.
var errTransport = errors.New("no answer")

// do sends one request with a bearer token and decodes the answer into out,
// an envelope of the result fields the caller reads. body is sent as is
// (already JSON) when not nil.
func (c *client) do(method, path, token string, body []byte, out any) error {
	if _, err := c.api.DoJSONInto(context.Background(), method, path, token, body, out); err != nil {
		return fmt.Errorf("%w: %s %s: %w", errTransport, method, path, err)
	}
	return nil
}

// actReply is browser.act's answer, with the few result fields the agents
// read, decoded without reflection.
type actReply = messages.ActReply

// owner sends one owner request.
func (c *client) owner(token, method, path string, body any) (*apiclient.Response, error) {
	r, err := c.api.Do(context.Background(), method, path, token, body)
	if err != nil {
		return nil, fmt.Errorf("%w: %s %s: %w", errTransport, method, path, err)
	}
	return r, nil
}

func (c *client) close() { c.api.CloseIdle() }

// Codes the harness gives calls that got no API answer.
const (
	codeTransport = "transport" // no answer came
	codeNotOK     = "not_ok"    // an answer that is neither ok nor an error
)
