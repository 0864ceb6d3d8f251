package e2e_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
)

// BenchmarkObserveRoundTrip is one observe of the same page through each way
// an agent reaches buddi: the HTTP API, MCP over stdio through `buddi mcp`
// (which posts to the HTTP API), and MCP over streamable HTTP at /mcp. Each
// iteration observes once each way, in rotating order, so the three share
// the page and the machine's load; it reports each way's p50 and the p50 of
// each MCP way's extra time over the API's in the same iteration.
func BenchmarkObserveRoundTrip(b *testing.B) {
	srv := benchSite(b)
	b.Setenv("BUDDI_PREVIEW_ORIGINS", srv.URL)
	cfg, err := config.FromEnv(os.Getenv)
	if err != nil {
		b.Fatal(err)
	}
	cfg.Driver = "playwright"
	d := daemontest.Start(b, "", daemon.Options{Config: cfg})
	tok := d.AddAgent(b, "bench", false)

	cmd := exec.Command(bin, "mcp", "--addr", d.Addr())
	cmd.Env = append(os.Environ(), "BUDDI_AGENT_TOKEN="+tok)
	stdio := connectMCP(b, &mcp.CommandTransport{Command: cmd})
	web := connectMCP(b, &mcp.StreamableClientTransport{Endpoint: "http://" + d.Addr() + "/mcp",
		HTTPClient: &http.Client{Transport: bearerOnly(tok)}, MaxRetries: -1})
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
			conv = freshTask(b, d, tok, conv, fmt.Sprintf("bench-%d", round), srv.URL+"/")
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

// freshTask releases old (if any), starts a task for conv and opens page.
func freshTask(b *testing.B, d *daemontest.Daemon, tok, old, conv, page string) string {
	if old != "" {
		d.Must(b, "POST", "/api/browser/release", in{"conversation": old})
		for i := 0; strings.Contains(string(d.Must(b, "GET", "/api/browser/sessions", nil).Result), `"`+old+`"`); i++ {
			if i == 500 {
				b.Fatal("the released session did not go away")
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	d.Task(b, "bench", conv, 80)
	if r := d.Act(b, tok, conv, in{"action": "navigate", "url": page}); !r.OK {
		b.Fatalf("navigate: %s", r.Code())
	}
	return conv
}

func connectMCP(b *testing.B, t mcp.Transport) *mcp.ClientSession {
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).Connect(context.Background(), t, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cs.Close() })
	return cs
}

// bearerOnly sends the agent token on every request.
type bearerOnly string

func (t bearerOnly) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(t))
	return http.DefaultTransport.RoundTrip(r)
}
