package mcp_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	buddimcp "github.com/buddi-dev/buddi/ui/mcp"
)

// clock is a clock the test moves.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// bounded serves a Handler for agents a0…a(n-1) (tokens tok-a0…) on a
// real socket, with the clock of its opening rate.
func bounded(t *testing.T, n int) (*httptest.Server, *buddimcp.Handler, *clock) {
	t.Helper()
	b := &backend{agents: map[string]string{}}
	for i := range n {
		b.agents[fmt.Sprint("tok-a", i)] = fmt.Sprint("a", i)
	}
	c := &clock{t: time.Unix(1_700_000_000, 0)}
	srv, h := serve(t, buddimcp.HTTPConfig{Backend: b, Now: c.now})
	return srv, h, c
}

func bearer(i int) headers { return headers{"Authorization": fmt.Sprint("Bearer tok-a", i)} }

// rpcRefusal reads a JSON-RPC error answer.
func rpcRefusal(t *testing.T, body string) (id json.RawMessage, code, message string) {
	t.Helper()
	var m struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int               `json:"code"`
			Message string            `json:"message"`
			Data    map[string]string `json:"data"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &m); err != nil || m.JSONRPC != "2.0" || m.Error.Code == 0 {
		t.Fatalf("not a JSON-RPC error: %q (%v)", body, err)
	}
	return m.ID, m.Error.Data["code"], m.Error.Message
}

func TestHTTPAnAgentHoldsAtMostItsSessionsAndOthersGoOn(t *testing.T) {
	srv, _, _ := bounded(t, 2)
	var mine []*mcp.ClientSession
	for i := range buddimcp.SessionsPerAgent {
		cs, err := dial(t, srv.URL, bearer(0))
		if err != nil {
			t.Fatalf("session %d of %d: %v", i+1, buddimcp.SessionsPerAgent, err)
		}
		mine = append(mine, cs)
	}
	_, err := dial(t, srv.URL, bearer(0))
	if err == nil || !strings.Contains(err.Error(), "mcp_sessions_full: This agent already holds 8 MCP sessions") {
		t.Fatalf("a session past the agent's cap: %v", err)
	}
	status, _, body := post(t, srv.URL, map[string]string{"Authorization": "Bearer tok-a0"}, "")
	id, code, msg := rpcRefusal(t, body)
	if status != http.StatusConflict || string(id) != "1" || code != "mcp_sessions_full" || !strings.Contains(msg, "DELETE /mcp") {
		t.Fatalf("raw initialize past the cap: %d, id %s, code %q, %q", status, id, code, msg)
	}
	other, err := dial(t, srv.URL, bearer(1))
	if err != nil {
		t.Fatalf("another agent could not open a session: %v", err)
	}
	if res := call(t, other, buddimcp.ToolStatus, nil); res.IsError {
		t.Fatalf("another agent's call: %s", text(t, res))
	}
	if res := call(t, mine[0], buddimcp.ToolStatus, nil); res.IsError {
		t.Fatalf("a session within the cap stopped working: %s", text(t, res))
	}
}

func TestHTTPOpeningSessionsIsRateLimited(t *testing.T) {
	srv, _, c := bounded(t, 1)
	for range buddimcp.OpenBurst {
		cs, err := dial(t, srv.URL, bearer(0))
		if err != nil {
			t.Fatal(err)
		}
		if err := cs.Close(); err != nil { // DELETE: the cap is not what stops the next
			t.Fatal(err)
		}
	}
	status, h, body := post(t, srv.URL, map[string]string{"Authorization": "Bearer tok-a0"}, "")
	_, code, msg := rpcRefusal(t, body)
	if status != http.StatusTooManyRequests || code != "mcp_too_fast" || h.Get("Retry-After") == "" || !strings.Contains(msg, "reuse the session") {
		t.Fatalf("an open past the burst: %d, Retry-After %q, %s: %s", status, h.Get("Retry-After"), code, msg)
	}
	c.add(buddimcp.OpenEvery)
	if status, _, body := post(t, srv.URL, map[string]string{"Authorization": "Bearer tok-a0"}, ""); status != http.StatusOK {
		t.Fatalf("an open once a try came back: %d %s", status, body)
	}
}

func TestHTTPTheInstallHoldsAtMostItsSessions(t *testing.T) {
	agents := buddimcp.SessionsTotal/buddimcp.SessionsPerAgent + 1
	srv, _, _ := bounded(t, agents)
	opened := 0
	for a := range agents {
		for range buddimcp.SessionsPerAgent {
			status, _, body := post(t, srv.URL, map[string]string{"Authorization": fmt.Sprint("Bearer tok-a", a)}, "")
			if opened < buddimcp.SessionsTotal {
				if status != http.StatusOK {
					t.Fatalf("session %d: %d %s", opened+1, status, body)
				}
				opened++
				continue
			}
			_, code, msg := rpcRefusal(t, body)
			if status != http.StatusConflict || code != "mcp_sessions_full" || !strings.Contains(msg, "all agents together") {
				t.Fatalf("a session past the install's cap: %d %s %s", status, code, msg)
			}
			return
		}
	}
	t.Fatal("every session was opened")
}

func TestHTTPSessionsKeepOnlyAShortClientInfo(t *testing.T) {
	srv, h, _ := bounded(t, 1)
	long := strings.Repeat("é", 6_000) // 12 KB
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":"x","method":"initialize","params":{"protocolVersion":"2025-06-18",`+
		`"capabilities":{"experimental":{"pad":%q}},"clientInfo":{"name":%q,"title":%q,"version":"1","websiteUrl":%q,"icons":[{"src":%q}]},"_meta":{"pad":%q}}}`,
		long[:2000], long, long, long[:1000], long[:10000], long[:10000])
	status, _, answer := postBody(t, srv.URL, "tok-a0", body)
	if status != http.StatusOK {
		t.Fatalf("initialize: %d %s", status, answer)
	}
	infos := buddimcp.ClientInfos(h)
	if len(infos) != 1 {
		t.Fatalf("%d live sessions, want 1", len(infos))
	}
	ci := infos[0]
	if len(ci.Name) > 128 || len(ci.Title) > 128 || ci.Name == "" || !strings.HasPrefix(long, ci.Name) || ci.WebsiteURL != "" || ci.Icons != nil {
		t.Fatalf("kept clientInfo: name %d bytes, title %d bytes, website %d bytes, %d icons",
			len(ci.Name), len(ci.Title), len(ci.WebsiteURL), len(ci.Icons))
	}
	status, _, answer = postBody(t, srv.URL, "tok-a0", `{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"pad":"`+strings.Repeat("a", 70_000)+`"}}`)
	if _, code, _ := rpcRefusal(t, answer); status != http.StatusRequestEntityTooLarge || code != "bad_request" {
		t.Fatalf("a 70 KB initialize: %d %s", status, answer)
	}
}

// postBody posts body as the request that opens a session.
func postBody(t *testing.T, url, token, body string) (int, http.Header, string) {
	t.Helper()
	return send(t, url, map[string]string{"Authorization": "Bearer " + token}, "", body)
}
