package mcp_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

const token = "agent-secret"

// received is one request the fake daemon got.
type received struct {
	Tool         string
	Auth         string
	ContentType  string
	Conversation string
	Input        json.RawMessage
}

// reply answers one tool call on behalf of the fake daemon.
type reply func(w http.ResponseWriter, r *http.Request, got received)

// daemon is a fake of buddi's agent API (the seam this package forwards to):
// it checks the bearer token, records every call and answers with reply.
type daemon struct {
	*httptest.Server
	mu    sync.Mutex
	calls []received
}

func newDaemon(t *testing.T, answer reply) *daemon {
	t.Helper()
	d := &daemon{}
	d.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tool, ok := strings.CutPrefix(r.URL.Path, "/api/tools/")
		if r.Method != http.MethodPost || !ok {
			http.Error(w, `{"ok":false,"error":{"code":"not_found","message":"No such tool."}}`, http.StatusNotFound)
			return
		}
		got := received{Tool: tool, Auth: r.Header.Get("Authorization"), ContentType: r.Header.Get("Content-Type")}
		var body struct {
			Conversation string          `json:"conversation"`
			Input        json.RawMessage `json:"input"`
		}
		raw, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(raw, &body); err != nil {
			http.Error(w, `{"ok":false,"error":{"code":"bad_input","message":"Not JSON."}}`, http.StatusBadRequest)
			return
		}
		got.Conversation, got.Input = body.Conversation, body.Input
		d.mu.Lock()
		d.calls = append(d.calls, got)
		d.mu.Unlock()
		if got.Auth != "Bearer "+token {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"ok":false,"error":{"code":"unauthorized","message":"Bad token."}}`)
			return
		}
		answer(w, r, got)
	}))
	t.Cleanup(d.Close)
	return d
}

// received returns the calls so far.
func (d *daemon) received() []received {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]received(nil), d.calls...)
}

// answerJSON replies with a fixed status and body.
func answerJSON(status int, body string) reply {
	return func(w http.ResponseWriter, _ *http.Request, _ received) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

// okResult replies {"ok":true,"result":result}.
func okResult(t *testing.T, result any) reply {
	t.Helper()
	b, err := json.Marshal(map[string]any{"ok": true, "result": result})
	if err != nil {
		t.Fatal(err)
	}
	return answerJSON(http.StatusOK, string(b))
}
