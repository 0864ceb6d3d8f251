package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	buddimcp "github.com/buddi-dev/buddi/ui/mcp"
)

// flood is one agent looping initialize over /mcp on 8 connections, each
// with a clientInfo of 60 KB, as the review's attack did.
type flood struct {
	mu      sync.Mutex
	opened  int            // initializes answered with a session
	refused map[string]int // refusals by code
	other   []string       // answers that were neither
	sample  string         // one refusal's message
}

func (f *flood) run(t testing.TB, url, token string, d time.Duration) {
	t.Helper()
	f.refused = map[string]int{}
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":%q,"version":"1"}}}`,
		strings.Repeat("x", 60<<10))
	end := time.Now().Add(d)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}}
			defer client.CloseIdleConnections()
			for time.Now().Before(end) {
				f.one(client, url, token, body)
			}
		})
	}
	wg.Wait()
}

func (f *flood) one(client *http.Client, url, token, body string) {
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		f.note("", "transport: "+err.Error())
		return
	}
	b, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode == http.StatusOK && resp.Header.Get("Mcp-Session-Id") != "" {
		f.mu.Lock()
		f.opened++
		f.mu.Unlock()
		return
	}
	var m struct {
		Error struct {
			Message string            `json:"message"`
			Data    map[string]string `json:"data"`
		} `json:"error"`
	}
	if json.Unmarshal(b, &m) != nil || m.Error.Data["code"] == "" {
		f.note("", fmt.Sprintf("%d %.200s", resp.StatusCode, b))
		return
	}
	f.note(m.Error.Data["code"], m.Error.Message)
}

func (f *flood) note(code, what string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if code == "" {
		f.other = append(f.other, what)
		return
	}
	f.refused[code]++
	if code == "mcp_sessions_full" {
		f.sample = what
	}
}

// keepCalling has agent ada call browser_status over its own MCP session
// until stop closes, and returns how many calls were made and which failed.
func keepCalling(t testing.TB, cs *mcp.ClientSession, stop <-chan struct{}) (calls int, failed []string) {
	t.Helper()
	for {
		select {
		case <-stop:
			return calls, failed
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "browser_status"})
		cancel()
		calls++
		switch {
		case err != nil:
			failed = append(failed, err.Error())
		case res.IsError:
			failed = append(failed, fmt.Sprint(res.Content))
		}
	}
}

// floodAndWatch starts buddi with two agents, floods /mcp as one for d
// while the other calls over its own session, and returns what happened.
func floodAndWatch(t testing.TB, d time.Duration) (f *flood, calls int, failed []string, rssBefore, rssAfter int64) {
	t.Helper()
	b := serve(t, "")
	flooder := b.AddAgent(t, "flooder", false)
	ada := b.AddAgent(t, "ada", false)
	url := "http://" + b.addr + "/mcp"
	cs, err := daemontest.DialMCP(t, url, daemontest.Headers{"Authorization": "Bearer " + ada})
	if err != nil {
		t.Fatal(err)
	}
	rssBefore = rss(t, b.cmd.Process.Pid)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		calls, failed = keepCalling(t, cs, stop)
	}()
	f = &flood{}
	f.run(t, url, flooder, d)
	close(stop)
	<-done
	rssAfter = rss(t, b.cmd.Process.Pid)
	return f, calls, failed, rssBefore, rssAfter
}

// TestE2EAnAgentFloodingMCPGetsItsCapAndOthersGoOn loops initialize as one
// agent on 8 connections: it gets its 8 sessions, then a JSON-RPC error
// with a sentence for every further one, while another agent's calls over
// MCP keep being answered.
func TestE2EAnAgentFloodingMCPGetsItsCapAndOthersGoOn(t *testing.T) {
	f, calls, failed, _, _ := floodAndWatch(t, 3*time.Second)
	if f.opened != buddimcp.SessionsPerAgent {
		t.Errorf("the flooding agent opened %d sessions, want its cap of %d", f.opened, buddimcp.SessionsPerAgent)
	}
	if f.refused["mcp_sessions_full"] == 0 || !strings.HasPrefix(f.sample, "mcp_sessions_full: This agent already holds 8 MCP sessions") {
		t.Errorf("refusals %v; a cap refusal said %q", f.refused, f.sample)
	}
	if len(f.other) > 0 {
		t.Errorf("%d answers were neither a session nor a refusal with a code, such as %q", len(f.other), f.other[0])
	}
	if calls == 0 || len(failed) > 0 {
		t.Errorf("the other agent made %d calls during the flood; %d failed, such as %v", calls, len(failed), failed)
	}
}

// BenchmarkMCPInitializeFlood floods /mcp as TestE2EAnAgentFloodingMCP…
// does, for BUDDI_FLOOD_SECONDS (60 by default), and reports what it added
// to the RSS of `buddi serve` and the rate of refused initializes. Run it
// with -benchtime=1x.
func BenchmarkMCPInitializeFlood(b *testing.B) {
	secs := 60
	if s, err := strconv.Atoi(os.Getenv("BUDDI_FLOOD_SECONDS")); err == nil && s > 0 {
		secs = s
	}
	for range b.N {
		f, calls, failed, before, after := floodAndWatch(b, time.Duration(secs)*time.Second)
		refused := 0
		for _, n := range f.refused {
			refused += n
		}
		b.ReportMetric(float64(after-before)/(1<<20), "rss-added-MB")
		b.ReportMetric(float64(after)/(1<<20), "rss-MB")
		b.ReportMetric(float64(refused)/float64(secs), "refused/s")
		b.ReportMetric(float64(f.opened), "sessions")
		b.ReportMetric(float64(calls), "other-agent-calls")
		b.ReportMetric(float64(len(failed)), "other-agent-failures")
	}
}

// rss reads a process's resident set size, in bytes.
func rss(t testing.TB, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmRSS")
	return 0
}
