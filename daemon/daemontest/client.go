// Package daemontest starts buddi daemons for tests and talks to them the
// way agents and the owner do: over the real HTTP API on 127.0.0.1.
package daemontest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// Client calls a running daemon's HTTP API.
type Client struct {
	Base  string // http://127.0.0.1:port
	Owner string // the owner token
	HTTP  *http.Client
}

// NewClient returns a client for base with the owner token.
func NewClient(base, owner string) *Client {
	return &Client{Base: base, Owner: owner, HTTP: &http.Client{Timeout: 2 * time.Minute}}
}

// Reply is a decoded API answer.
type Reply struct {
	Status int
	OK     bool            `json:"ok"`
	Result json.RawMessage `json:"result"`
	Error  *messages.Error `json:"error"`
}

// Map decodes the result as an object.
func (r *Reply) Map() map[string]any {
	var m map[string]any
	_ = json.Unmarshal(r.Result, &m)
	return m
}

// Code is the error code, or "" on success.
func (r *Reply) Code() string {
	if r.Error == nil {
		return ""
	}
	return r.Error.Code
}

// Do sends one request with a bearer token and decodes the envelope.
func (c *Client) Do(method, path, token string, body any) (*Reply, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.Base+path, rd)
	if err != nil {
		return nil, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	r := &Reply{Status: resp.StatusCode}
	if err := json.NewDecoder(resp.Body).Decode(r); err != nil {
		return nil, fmt.Errorf("%s %s: HTTP %d, undecodable body: %w", method, path, resp.StatusCode, err)
	}
	return r, nil
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
	r := c.Must(t, "POST", "/api/agents", map[string]any{"name": name, "autoApprove": auto})
	return r.Map()["token"].(string)
}

// Task starts a task for conv.
func (c *Client) Task(t testing.TB, agent, conv string, steps int) {
	t.Helper()
	c.Must(t, "POST", "/api/tasks", map[string]any{"agent": agent, "conversation": conv,
		"description": "test task for " + conv, "steps": steps, "minutes": 20})
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
