package mcp_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	buddimcp "github.com/buddi-dev/buddi/ui/mcp"
)

func TestErrorResults(t *testing.T) {
	for name, tc := range map[string]struct {
		token  string
		answer reply
		want   string
	}{
		"tool error": {token, answerJSON(http.StatusOK, `{"ok":false,"error":{"code":"stale_ref","message":"Observe again."}}`),
			"stale_ref: Observe again."},
		"refused token": {"wrong", nil,
			"unauthorized: The agent token was refused; create one with `buddi agent add NAME` and pass it as --agent-token or BUDDI_AGENT_TOKEN."},
		"http error with a tool error": {token, answerJSON(http.StatusTooManyRequests, `{"ok":false,"error":{"code":"busy","message":"Try again."}}`),
			"busy: Try again."},
		"not the agent API": {token, answerJSON(http.StatusBadGateway, `<html>bad gateway</html>`),
			"bad_answer: "},
		"ok without ok": {token, answerJSON(http.StatusOK, `{"result":{}}`),
			"bad_answer: "},
	} {
		t.Run(name, func(t *testing.T) {
			d := newDaemon(t, tc.answer)
			cfg := config(d)
			cfg.Token = tc.token
			res := call(t, connect(t, cfg), buddimcp.ToolAct, map[string]any{"action": "observe"})
			if got := text(t, res); !res.IsError || !strings.HasPrefix(got, tc.want) {
				t.Errorf("IsError %v, text %q, want prefix %q", res.IsError, got, tc.want)
			}
		})
	}
}

func TestDaemonUnreachable(t *testing.T) {
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	cs := connect(t, buddimcp.Config{BaseURL: down.URL, Token: token})
	res := call(t, cs, buddimcp.ToolStatus, nil)
	want := "daemon_unreachable: buddi is not running at " + down.URL + "; start it with `buddi serve` (or `make run`)."
	if got := text(t, res); !res.IsError || got != want {
		t.Errorf("IsError %v, text %q, want %q", res.IsError, got, want)
	}
	sameJSON(t, res.StructuredContent, `{"code":"daemon_unreachable","message":"buddi is not running at `+down.URL+"; start it with `buddi serve` (or `make run`).\"}")
}

// hang blocks each request until the request is cancelled, then reports it.
func hang(started, cancelled chan<- struct{}) reply {
	return func(_ http.ResponseWriter, r *http.Request, _ received) {
		started <- struct{}{}
		<-r.Context().Done()
		cancelled <- struct{}{}
	}
}

func TestDeadline(t *testing.T) {
	started, cancelled := make(chan struct{}, 1), make(chan struct{}, 1)
	d := newDaemon(t, hang(started, cancelled))
	cfg := config(d)
	cfg.Timeout = 100 * time.Millisecond
	res := call(t, connect(t, cfg), buddimcp.ToolAct, map[string]any{"action": "observe"})
	if got := text(t, res); !res.IsError || !strings.HasPrefix(got, "timeout: ") {
		t.Errorf("IsError %v, text %q", res.IsError, got)
	}
	<-cancelled
}

func TestCancelCancelsRequest(t *testing.T) {
	started, cancelled := make(chan struct{}, 1), make(chan struct{}, 1)
	d := newDaemon(t, hang(started, cancelled))
	cs := connect(t, config(d))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: buddimcp.ToolAct, Arguments: map[string]any{"action": "observe"}})
		done <- err
	}()
	<-started
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("CallTool after cancel: %v", err)
	}
	<-cancelled // the daemon saw its request cancelled
}
