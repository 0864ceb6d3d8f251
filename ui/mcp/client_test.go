package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	buddimcp "github.com/buddi-dev/buddi/ui/mcp"
)

// connect serves cfg with Run over in-memory transports and returns a
// connected SDK client; cleanup disconnects and waits for Run to return.
func connect(t *testing.T, cfg buddimcp.Config) *mcp.ClientSession {
	t.Helper()
	s, err := buddimcp.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return connectServer(t, s)
}

func connectServer(t *testing.T, s *buddimcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	serverSide, clientSide := mcp.NewInMemoryTransports()
	ran := make(chan error, 1)
	go func() { ran <- s.Run(ctx, serverSide) }()
	client := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "0"}, nil)
	cs, err := client.Connect(ctx, clientSide, nil)
	if err != nil {
		cancel()
		<-ran
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.Close()
		err := <-ran
		cancel()
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("Run: %v", err)
		}
	})
	return cs
}

func config(d *daemon) buddimcp.Config {
	return buddimcp.Config{BaseURL: d.URL, Token: token, Version: "test"}
}

// call calls a tool and fails the test on a protocol error.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool %s: %v", tool, err)
	}
	return res
}

// text returns the result's first content, which must be text.
func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) == 0 {
		t.Fatal("result has no content")
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("first content is %T, want *mcp.TextContent", res.Content[0])
	}
	return tc.Text
}

// sameJSON fails unless got and want encode to equal JSON values.
func sameJSON(t *testing.T, got any, want string) {
	t.Helper()
	g, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	var gv, wv any
	if err := json.Unmarshal(g, &gv); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(want), &wv); err != nil {
		t.Fatalf("bad want %s: %v", want, err)
	}
	gb, _ := json.Marshal(gv)
	wb, _ := json.Marshal(wv)
	if string(gb) != string(wb) {
		t.Errorf("got JSON %s\nwant      %s", gb, wb)
	}
}
