// Package daemontest starts buddi daemons for tests and talks to them the
// way agents and the owner do: over the real HTTP API on 127.0.0.1, through
// the one API client (apiclient). In-process daemons also hand out event
// subscriptions, so tests wait on events rather than poll.
package daemontest

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/apiclient"
	"github.com/buddi-dev/buddi/messages"
)

// callTimeout bounds one test request.
const callTimeout = 2 * time.Minute

// Client calls a running daemon's HTTP API.
type Client struct {
	API   *apiclient.Client
	Owner string // the owner token
	HTTP  *http.Client
}

// NewClient returns a client for base with the owner token.
func NewClient(base, owner string) *Client {
	hc := &http.Client{Timeout: callTimeout}
	api, err := apiclient.New(base, apiclient.WithHTTP(hc), apiclient.WithUserAgent("daemontest"))
	if err != nil {
		panic(err)
	}
	return &Client{API: api, Owner: owner, HTTP: hc}
}

// Reply is a decoded API answer.
type Reply = apiclient.Response

// Do sends one request with a bearer token and decodes the envelope.
func (c *Client) Do(method, path, token string, body any) (*Reply, error) {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	return c.API.Do(ctx, method, path, token, body)
}

// Must is Do that fails the test on a transport error or an API error.
func (c *Client) Must(t testing.TB, method, path string, body any) *Reply {
	t.Helper()
	r, err := c.Do(method, path, c.Owner, body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	if !r.OK {
		t.Fatalf("%s %s: %s: %s", method, path, r.Code(), r.Error.Message)
	}
	return r
}

// AddAgent registers an agent and returns its token.
func (c *Client) AddAgent(t testing.TB, name string, auto bool) string {
	t.Helper()
	r := c.Must(t, "POST", "/api/agents", messages.OwnerBody{Name: name, AutoApprove: auto})
	return r.Map()["token"].(string)
}

// Task starts a task for conv.
func (c *Client) Task(t testing.TB, agent, conv string, steps int) {
	t.Helper()
	c.Must(t, "POST", "/api/tasks", messages.OwnerBody{Agent: agent, Conversation: conv,
		Description: "test task for " + conv, Steps: steps, Minutes: 20})
}

// Act calls browser.act as the agent with token.
func (c *Client) Act(t testing.TB, token, conv string, input any) *Reply {
	t.Helper()
	return c.Tool(t, token, "browser.act", conv, input)
}

// Tool calls any tool.
func (c *Client) Tool(t testing.TB, token, tool, conv string, input any) *Reply {
	t.Helper()
	r, err := c.Do("POST", "/api/tools/"+tool, token, map[string]any{"conversation": conv, "input": input})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return r
}

// Observe observes and returns the result, failing the test on an error.
func (c *Client) Observe(t testing.TB, token, conv string) map[string]any {
	t.Helper()
	r := c.Act(t, token, conv, map[string]any{"action": "observe"})
	if !r.OK {
		t.Fatalf("observe: %s: %s", r.Code(), r.Error.Message)
	}
	return r.Map()
}
