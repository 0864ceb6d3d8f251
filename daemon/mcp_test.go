package daemon_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/sim"
	buddimcp "github.com/buddi-dev/buddi/ui/mcp"
)

func dialMCP(t *testing.T, addr, token, conv string) (*mcp.ClientSession, error) {
	t.Helper()
	return daemontest.DialMCP(t, "http://"+addr+"/mcp",
		daemontest.Headers{"Authorization": "Bearer " + token, buddimcp.ConversationHeader: conv})
}

// TestMCPOverHTTPReachesTheSameSession drives a task through /mcp on the
// daemon's own fasthttp server and checks it is the session the HTTP API sees.
func TestMCPOverHTTPReachesTheSameSession(t *testing.T) {
	var in inputs
	d, token := setup(t, simOpts(sim.Config{}, &in), "c1", 80)
	cs, err := dialMCP(t, d.Addr(), token, "c1")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	act := func(args map[string]any) string {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: buddimcp.ToolAct, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if res.IsError {
			t.Fatalf("%v: %s", args, text)
		}
		return text
	}
	act(map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1"})
	obs := d.Observe(t, token, "c1") // the HTTP API sees the page MCP opened
	if obs["url"] != "https://sim.localhost/p/1" {
		t.Fatalf("the HTTP API sees %v, want the page navigated to over MCP", obs["url"])
	}
	act(map[string]any{"action": "navigate", "url": "https://sim.localhost/form/1"})
	if text := act(map[string]any{"action": "observe"}); !strings.Contains(text, "textbox") {
		t.Fatalf("observe over MCP:\n%s", text)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if n := in.count("c1", drivers.Submit); n != 0 {
		t.Errorf("%d submissions, want none", n)
	}
}

func TestMCPOverHTTPRefusesAnUnknownToken(t *testing.T) {
	d, _ := setup(t, simOpts(sim.Config{}, nil), "c1", 80)
	if _, err := dialMCP(t, d.Addr(), "ba_not-a-token", "c1"); err == nil {
		t.Fatal("an unknown token opened an MCP session")
	} else if !strings.Contains(err.Error(), "401") && !strings.Contains(err.Error(), "nauthorized") {
		t.Errorf("connect with an unknown token: %v; want a 401", err)
	}
}

// TestShutdownEndsMCPSessions leaves a session open: the daemon's shutdown
// must end it (goleak in TestMain checks nothing of it is left).
func TestShutdownEndsMCPSessions(t *testing.T) {
	d, token := setup(t, simOpts(sim.Config{}, nil), "c1", 80)
	cs, err := dialMCP(t, d.Addr(), token, "c1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: buddimcp.ToolStatus}); err != nil {
		t.Fatal(err)
	}
	d.Stop(t)
	_ = cs.Close()
}
