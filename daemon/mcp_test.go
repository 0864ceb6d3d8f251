package daemon_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
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

// browser_act's description over /mcp says what the install lets the
// browser open as it is when a session starts: a session opened after the
// owner turned air-gap on in settings reads that air-gap is on, one opened
// after it was turned off again no longer does.
func TestMCPDescriptionFollowsAirGapTurnedOnInSettings(t *testing.T) {
	d := daemontest.Start(t, "", simOpts(sim.Config{}, nil))
	token := d.AddAgent(t, "ada", false)
	actDoc := func() string {
		cs, err := dialMCP(t, d.Addr(), token, "c1")
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		tools, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range tools.Tools {
			if tl.Name == buddimcp.ToolAct {
				return tl.Description
			}
		}
		t.Fatalf("no %s among the tools", buddimcp.ToolAct)
		return ""
	}
	const says = "Air-gap is on"
	if strings.Contains(actDoc(), says) {
		t.Fatal("before air-gap was turned on the description says it is on")
	}
	d.Must(t, "POST", "/api/settings/browser", map[string]any{"airGap": true})
	if !strings.Contains(actDoc(), says) {
		t.Fatal("a session opened after air-gap was turned on does not read that it is on")
	}
	d.Must(t, "POST", "/api/settings/browser", map[string]any{"airGap": false})
	if strings.Contains(actDoc(), says) {
		t.Fatal("a session opened after air-gap was turned off still reads that it is on")
	}
}

// TestAConversationNamedByAnMCPHeaderKeepsItsName: the conversation an MCP
// client names in its Buddi-Conversation header is the task's for as long
// as the task lives, whatever requests come after. (fasthttp reuses a
// request's memory once it is answered; a name kept from it read, one
// request later, as the next request's header written over it.)
func TestAConversationNamedByAnMCPHeaderKeepsItsName(t *testing.T) {
	d := daemontest.Start(t, "", daemon.Options{})
	names := []string{"manual2", "zz9", "a-longer-conversation-name"}
	for i, conv := range names {
		token := d.AddAgent(t, fmt.Sprintf("agent%d", i), true)
		cs, err := dialMCP(t, d.Addr(), token, conv)
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "browser_task",
			Arguments: map[string]any{"description": "keep the name " + conv}})
		if err != nil || res.IsError {
			t.Fatalf("browser_task in %s: %v %+v", conv, err, res)
		}
	}
	var tasks []messages.TaskView
	if err := d.Must(t, "GET", "/api/tasks", nil).Decode(&tasks); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, task := range tasks {
		got[task.Description] = task.Conversation
	}
	for _, conv := range names {
		if got["keep the name "+conv] != conv {
			t.Errorf("the task asked for in %q is now in %q", conv, got["keep the name "+conv])
		}
	}
}
