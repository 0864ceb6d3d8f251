package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/buddi-dev/buddi/messages"
	buddimcp "github.com/buddi-dev/buddi/ui/mcp"
)

// backend is a fake of the daemon's actors behind /mcp (the Backend seam):
// tokens map to agents, and every call is recorded and answered with ok.
type backend struct {
	agents map[string]string // token → agent
	mu     sync.Mutex
	calls  []received
}

func (b *backend) Identify(_ context.Context, token string) (string, error) {
	if a, ok := b.agents[token]; ok {
		return a, nil
	}
	return "", &messages.Error{Code: "unauthorized", Message: "The agent token was not recognised."}
}

func (b *backend) Call(_ context.Context, token, tool, conv string, input json.RawMessage) (json.RawMessage, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.calls = append(b.calls, received{Tool: tool, Auth: token, Conversation: conv, Input: input})
	if tool == messages.ToolTask {
		return json.RawMessage(`{"text":"Asked the owner; then call browser.status."}`), nil
	}
	return json.RawMessage(`{"text":"Ready."}`), nil
}

func (b *backend) received() []received {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]received(nil), b.calls...)
}

// endpoint serves a Handler on a real 127.0.0.1 socket.
func endpoint(t *testing.T, public string) (*backend, *httptest.Server, *buddimcp.Handler) {
	t.Helper()
	b := &backend{agents: map[string]string{"tok-ada": "ada", "tok-bob": "bob"}}
	srv, h := serve(t, buddimcp.HTTPConfig{Backend: b, PublicOrigin: public})
	return b, srv, h
}

// serve starts a Handler made from cfg on a real 127.0.0.1 socket (its
// Addr is the socket's), closed when the test ends.
func serve(t *testing.T, cfg buddimcp.HTTPConfig) (*httptest.Server, *buddimcp.Handler) {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	cfg.Addr = srv.Listener.Addr().String()
	h, err := buddimcp.NewHandler(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = h
	srv.Start()
	t.Cleanup(func() {
		srv.Close()
		h.Close()
	})
	return srv, h
}

// headers adds fixed headers to every request, as a configured client does.
type headers map[string]string

func (h headers) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h {
		r.Header.Set(k, v)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// dial connects the SDK's own streamable HTTP client.
func dial(t *testing.T, url string, h headers) (*mcp.ClientSession, error) {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "http-agent", Version: "0"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint: url, HTTPClient: &http.Client{Transport: h}, MaxRetries: -1}, nil)
	if err == nil {
		t.Cleanup(func() { _ = cs.Close() })
	}
	return cs, err
}

func TestHTTPCallsRunAsTheBearersAgent(t *testing.T) {
	b, srv, _ := endpoint(t, "")
	cs, err := dial(t, srv.URL, headers{"Authorization": "Bearer tok-ada"})
	if err != nil {
		t.Fatal(err)
	}
	res := call(t, cs, buddimcp.ToolStatus, nil)
	call(t, cs, buddimcp.ToolAct, map[string]any{"action": "observe"})
	if got := text(t, res); res.IsError || got != "Ready." {
		t.Fatalf("IsError %v, text %q", res.IsError, got)
	}
	got := b.received()
	if len(got) != 2 || got[0].Auth != "tok-ada" || got[0].Tool != messages.ToolStatus || got[1].Tool != messages.ToolAct {
		t.Fatalf("backend received %+v", got)
	}
	if !generated.MatchString(got[0].Conversation) || got[1].Conversation != got[0].Conversation {
		t.Errorf("conversations %q, %q: want one generated id for the session", got[0].Conversation, got[1].Conversation)
	}
	other, err := dial(t, srv.URL, headers{"Authorization": "Bearer tok-ada"})
	if err != nil {
		t.Fatal(err)
	}
	call(t, other, buddimcp.ToolStatus, nil)
	if got := b.received(); got[2].Conversation == got[0].Conversation {
		t.Errorf("a second MCP session shares conversation %q", got[0].Conversation)
	}
}

func TestHTTPConversationHeaderAndArgument(t *testing.T) {
	b, srv, _ := endpoint(t, "")
	cs, err := dial(t, srv.URL, headers{"Authorization": "Bearer tok-ada", buddimcp.ConversationHeader: "ada"})
	if err != nil {
		t.Fatal(err)
	}
	call(t, cs, buddimcp.ToolStatus, nil)
	call(t, cs, buddimcp.ToolStatus, map[string]any{"conversation": "other"})
	got := b.received()
	if len(got) != 2 || got[0].Conversation != "ada" || got[1].Conversation != "other" {
		t.Errorf("backend received %+v; want the header's conversation, then the argument's", got)
	}
}

func TestHTTPTaskAnswerNamesMCPTools(t *testing.T) {
	_, srv, _ := endpoint(t, "")
	cs, err := dial(t, srv.URL, headers{"Authorization": "Bearer tok-ada"})
	if err != nil {
		t.Fatal(err)
	}
	res := call(t, cs, buddimcp.ToolTask, map[string]any{"description": "Read the docs."})
	if got := text(t, res); got != "Asked the owner; then call browser_status." {
		t.Errorf("task answer %q names the agent API's tool", got)
	}
}

// post sends one raw initialize request and returns the answer.
func post(t *testing.T, url string, h map[string]string, host string) (int, http.Header, string) {
	t.Helper()
	return send(t, url, h, host, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
}

// send posts body with headers h (and Host host, when set).
func send(t *testing.T, url string, h map[string]string, host, body string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range h {
		req.Header.Set(k, v)
	}
	if host != "" {
		req.Host = host
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

func TestHTTPRefusals(t *testing.T) {
	_, srv, _ := endpoint(t, "https://buddi.example.net")
	port := srv.Listener.Addr().String()[strings.LastIndex(srv.Listener.Addr().String(), ":"):]
	ada := map[string]string{"Authorization": "Bearer tok-ada"}
	with := func(k, v string) map[string]string { return map[string]string{"Authorization": "Bearer tok-ada", k: v} }
	for name, tc := range map[string]struct {
		headers map[string]string
		host    string
		status  int
		code    string
	}{
		"no bearer":            {nil, "", http.StatusUnauthorized, "unauthorized"},
		"basic auth":           {map[string]string{"Authorization": "Basic YTpi"}, "", http.StatusUnauthorized, "unauthorized"},
		"unknown token":        {map[string]string{"Authorization": "Bearer nope"}, "", http.StatusUnauthorized, "unauthorized"},
		"foreign origin":       {with("Origin", "https://evil.example"), "", http.StatusForbidden, "origin_refused"},
		"null origin":          {with("Origin", "null"), "", http.StatusForbidden, "origin_refused"},
		"rebound host":         {ada, "evil.example" + port, http.StatusForbidden, "host_refused"},
		"other port":           {ada, "127.0.0.1:1", http.StatusForbidden, "host_refused"},
		"own origin":           {with("Origin", srv.URL), "", http.StatusOK, ""},
		"localhost origin":     {with("Origin", "http://localhost"+port), "localhost" + port, http.StatusOK, ""},
		"public origin":        {with("Origin", "https://buddi.example.net"), "buddi.example.net", http.StatusOK, ""},
		"public origin, other": {with("Origin", "http://buddi.example.net"), "buddi.example.net", http.StatusForbidden, "origin_refused"},
	} {
		t.Run(name, func(t *testing.T) {
			status, h, body := post(t, srv.URL, tc.headers, tc.host)
			if status != tc.status {
				t.Fatalf("status %d, want %d: %s", status, tc.status, body)
			}
			if tc.code != "" && !strings.HasPrefix(body, tc.code+": ") {
				t.Errorf("body %q does not start with %s", body, tc.code)
			}
			if status == http.StatusUnauthorized && !strings.HasPrefix(h.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("401 without a Bearer challenge: %q", h.Get("WWW-Authenticate"))
			}
		})
	}
}

func TestHTTPSessionStaysWithItsAgent(t *testing.T) {
	_, srv, _ := endpoint(t, "")
	status, h, body := post(t, srv.URL, map[string]string{"Authorization": "Bearer tok-ada"}, "")
	id := h.Get("Mcp-Session-Id")
	if status != http.StatusOK || id == "" {
		t.Fatalf("initialize: %d, session %q: %s", status, id, body)
	}
	req, _ := http.NewRequest(http.MethodDelete, srv.URL, nil)
	req.Header.Set("Authorization", "Bearer tok-bob")
	req.Header.Set("Mcp-Session-Id", id)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("another agent's DELETE of ada's session: %d, want 403", resp.StatusCode)
	}
}

func TestHTTPGetIsNotAStream(t *testing.T) {
	_, srv, _ := endpoint(t, "")
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	req.Header.Set("Authorization", "Bearer tok-ada")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") == "" {
		t.Errorf("GET: %d, Allow %q; want 405 with Allow", resp.StatusCode, resp.Header.Get("Allow"))
	}
}

func TestHandlerCloseEndsSessions(t *testing.T) {
	_, srv, h := endpoint(t, "")
	cs, err := dial(t, srv.URL, headers{"Authorization": "Bearer tok-ada"})
	if err != nil {
		t.Fatal(err)
	}
	call(t, cs, buddimcp.ToolStatus, nil)
	h.Close()
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: buddimcp.ToolStatus}); err == nil {
		t.Error("a call on a session the handler closed succeeded")
	}
}
