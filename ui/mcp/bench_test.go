package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	buddimcp "github.com/buddi-dev/buddi/ui/mcp"
)

// BenchmarkBridgeObserve is the bridge's own cost for one observe: the
// SDK's client and the bridge over in-memory transports, and an HTTP
// server on 127.0.0.1 that answers every call with one observation of
// about 16 KB, as the daemon would. What it measures beside the daemon's
// work is what `buddi mcp` adds to every call an agent makes.
func BenchmarkBridgeObserve(b *testing.B) {
	var tree strings.Builder
	tree.WriteString("Observed 12:00:00 UTC.\n<<<page abc\nTitle: The Python Tutorial\n")
	for i := range 300 {
		fmt.Fprintf(&tree, "  - link \"Section %d: more about \\\"quotes\\\" and things\" [ref=e%d]\n", i, i+1)
	}
	tree.WriteString("abc>>>\n")
	body, err := json.Marshal(map[string]any{"ok": true, "result": map[string]any{
		"observation": "o1.1", "observedAt": "2026-12-05T12:00:00Z", "text": tree.String(),
		"url": "http://127.0.0.1:8765/tutorial/index.html", "title": "The Python Tutorial", "tab": "t1", "stepsLeft": 40,
	}})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	b.Cleanup(srv.Close)
	s, err := buddimcp.New(buddimcp.Config{BaseURL: srv.URL, Token: token, Version: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	serverSide, clientSide := mcp.NewInMemoryTransports()
	ran := make(chan error, 1)
	go func() { ran <- s.Run(ctx, serverSide) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).Connect(ctx, clientSide, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cs.Close(); <-ran; cancel() })
	args := map[string]any{"action": "observe"}
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: buddimcp.ToolAct, Arguments: args})
		if err != nil || res.IsError {
			b.Fatalf("observe: %v %v", err, res)
		}
	}
}
