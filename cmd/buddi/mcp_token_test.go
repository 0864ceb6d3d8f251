package main_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// tokenTrap is an HTTP server that records the bearer tokens sent to it.
type tokenTrap struct {
	*httptest.Server
	mu     sync.Mutex
	tokens []string
}

func newTokenTrap(t *testing.T) *tokenTrap {
	tr := &tokenTrap{}
	tr.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tr.mu.Lock()
		tr.tokens = append(tr.tokens, r.Header.Get("Authorization"))
		tr.mu.Unlock()
		http.Error(w, "no", http.StatusTeapot)
	}))
	t.Cleanup(tr.Close)
	return tr
}

func (tr *tokenTrap) seen() []string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return append([]string(nil), tr.tokens...)
}

// mcpCall runs `buddi mcp --data dir` as an MCP client would and calls one
// tool; it reports whether the call got any answer.
func mcpCall(t *testing.T, dir string) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.Command(bin, "mcp", "--data", dir)
	cmd.Env = append(cleanEnv(), "BUDDI_AGENT_TOKEN=ba_secret-token")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return false
	}
	defer cs.Close()
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "browser_status", Arguments: map[string]any{}})
	return err == nil
}

func writeInstance(t *testing.T, dir, addr string, mode os.FileMode) {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"pid": 1, "addr": addr})
	path := filepath.Join(dir, "serve.json")
	if err := os.WriteFile(path, b, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// buddi mcp sends the agent's token only to the address in a serve.json
// that is the user's own and owner-only, and only on loopback: a serve.json
// others could have written, or one that belongs to another user, sends
// nothing anywhere.
func TestMCPSendsTheTokenOnlyWhereTheOwnersServeJSONPoints(t *testing.T) {
	trap := newTokenTrap(t)
	addr := strings.TrimPrefix(trap.URL, "http://")
	dir := t.TempDir()

	writeInstance(t, dir, addr, 0o644)
	if mcpCall(t, dir) || len(trap.seen()) != 0 {
		t.Fatalf("with a serve.json others can read and write, the token went out: %v", trap.seen())
	}
	r := runCLI(t, []string{"BUDDI_AGENT_TOKEN=ba_x"}, "mcp", "--data", dir)
	if r.code == 0 || !strings.Contains(r.stderr, "owner-only") {
		t.Fatalf("exit %d stderr %q; want a sentence about the file's mode", r.code, r.stderr)
	}
	if os.Geteuid() == 0 {
		writeInstance(t, dir, addr, 0o600)
		if err := os.Chown(filepath.Join(dir, "serve.json"), 65534, 65534); err != nil {
			t.Fatal(err)
		}
		if mcpCall(t, dir) || len(trap.seen()) != 0 {
			t.Fatalf("with another user's serve.json, the token went out: %v", trap.seen())
		}
		_ = os.Remove(filepath.Join(dir, "serve.json"))
	}

	writeInstance(t, dir, addr, 0o600)
	mcpCall(t, dir)
	if got := trap.seen(); len(got) == 0 || got[0] != "Bearer ba_secret-token" {
		t.Fatalf("with the owner's own serve.json the token did not reach buddi: %v", got)
	}

	r = runCLI(t, []string{"BUDDI_AGENT_TOKEN=ba_x"}, "mcp", "--data", dir, "--addr", "192.0.2.7:7777")
	if r.code != 2 || !strings.Contains(r.stderr, "not a loopback address") {
		t.Fatalf("a non-loopback --addr: exit %d stderr %q", r.code, r.stderr)
	}
}
