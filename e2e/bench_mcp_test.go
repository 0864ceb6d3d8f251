package e2e_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/buddi-dev/buddi/daemon/daemontest"
)

// BenchmarkObserveRoundTrip is one observe of the same page through each way
// an agent reaches buddi: the HTTP API, MCP over stdio through `buddi mcp`
// (which posts to the HTTP API), and MCP over streamable HTTP at /mcp. Each
// iteration observes once each way, in rotating order, so the three share
// the page and the machine's load; it reports each way's p50 and the p50 of
// each MCP way's extra time over the API's in the same iteration.
func BenchmarkObserveRoundTrip(b *testing.B) {
	srv, d, tok := benchDaemon(b)

	cmd := exec.Command(bin, "mcp", "--addr", d.Addr())
	cmd.Env = append(os.Environ(), "BUDDI_AGENT_TOKEN="+tok)
	stdio, err := daemontest.Connect(b, &mcp.CommandTransport{Command: cmd})
	if err != nil {
		b.Fatal(err)
	}
	web, err := daemontest.DialMCP(b, "http://"+d.Addr()+"/mcp", daemontest.Headers{"Authorization": "Bearer " + tok})
	if err != nil {
		b.Fatal(err)
	}
	ways := []func(conv string){
		func(conv string) { d.Observe(b, tok, conv) },
		mcpObserve(b, stdio),
		mcpObserve(b, web),
	}
	lat := make([][]time.Duration, len(ways))
	extra := make([][]time.Duration, len(ways))
	conv, steps, round := "", 80, 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if steps+len(ways) > 78 { // a fresh task, within the 80-step budget, on the same page
			b.StopTimer()
			round++
			next := fmt.Sprintf("bench-%d", round)
			freshTask(b, d, tok, conv, next, srv.URL+"/")
			conv = next
			steps = 1
			b.StartTimer()
		}
		took := make([]time.Duration, len(ways))
		for k := range ways {
			w := (i + k) % len(ways)
			start := time.Now()
			ways[w](conv)
			took[w] = time.Since(start)
		}
		for w := range ways {
			lat[w] = append(lat[w], took[w])
			extra[w] = append(extra[w], took[w]-took[0])
		}
		steps += len(ways)
	}
	b.StopTimer()
	for w, name := range []string{"api", "stdio", "http"} {
		b.ReportMetric(p50(lat[w]), name+"-p50-ms")
		if w > 0 {
			b.ReportMetric(p50(extra[w]), name+"-extra-p50-ms")
		}
	}
}

func p50(d []time.Duration) float64 {
	s := slices.Clone(d)
	slices.Sort(s)
	return float64(s[len(s)/2].Microseconds()) / 1000
}

func mcpObserve(b *testing.B, cs *mcp.ClientSession) func(conv string) {
	return func(conv string) {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "browser_act",
			Arguments: map[string]any{"action": "observe", "conversation": conv}})
		if err != nil || res.IsError {
			b.Fatalf("observe over MCP: %v %v", err, res)
		}
	}
}
