package daemontest

import (
	"context"
	"net/http"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Headers sets fixed headers on every request, as an MCP client configured
// with headers (a bearer, a conversation) does.
type Headers map[string]string

// RoundTrip implements http.RoundTripper.
func (h Headers) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h {
		r.Header.Set(k, v)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// DialMCP connects the Go SDK's client to an MCP endpoint over streamable
// HTTP, sending h; the session is closed by t.Cleanup.
func DialMCP(t testing.TB, url string, h Headers) (*mcp.ClientSession, error) {
	t.Helper()
	return Connect(t, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: h}, MaxRetries: -1})
}

// Connect connects the Go SDK's client over tr; the session is closed by
// t.Cleanup.
func Connect(t testing.TB, tr mcp.Transport) (*mcp.ClientSession, error) {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "buddi-test", Version: "0"}, nil).Connect(context.Background(), tr, nil)
	if err == nil {
		t.Cleanup(func() { _ = cs.Close() })
	}
	return cs, err
}
