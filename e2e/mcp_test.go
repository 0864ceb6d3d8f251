package e2e_test

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestE2EMCPClientDrivesTheLoop runs `buddi mcp` as a process and drives a
// whole task through it with the SDK's own client, as any MCP client would.
func TestE2EMCPClientDrivesTheLoop(t *testing.T) {
	s := newSite(t)
	b, tok := setup(t, s, 80, "m1")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.Command(bin, "mcp", "--addr", b.addr, "--conversation", "m1")
	cmd.Env = append(os.Environ(), "BUDDI_AGENT_TOKEN="+tok)
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect to buddi mcp: %v", err)
	}
	defer cs.Close()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tl := range tools.Tools {
		names[tl.Name] = true
	}
	for _, want := range []string{"browser_status", "browser_act", "browser_task"} {
		if !names[want] {
			t.Fatalf("buddi mcp lists %v; %s is missing", names, want)
		}
	}
	call := func(args map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "browser_act", Arguments: args})
		if err != nil {
			t.Fatalf("call %v: %v", args, err)
		}
		var sb strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				sb.WriteString(tc.Text)
			}
		}
		return sb.String(), res.IsError
	}
	if text, isErr := call(map[string]any{"action": "navigate", "url": s.URL + "/form"}); isErr {
		t.Fatalf("navigate: %s", text)
	}
	text, isErr := call(map[string]any{"action": "observe"})
	if isErr || !strings.HasPrefix(text, "Observed ") {
		t.Fatalf("observe through MCP: %s", text)
	}
	obsID := regexp.MustCompile(`"observation":\s*"([^"]+)"`).FindStringSubmatch(text)
	box := regexp.MustCompile(`textbox "Name"[^\n]*\[ref=([^\]]+)\]`).FindStringSubmatch(text)
	btn := regexp.MustCompile(`button "Send"[^\n]*\[ref=([^\]]+)\]`).FindStringSubmatch(text)
	if obsID == nil || box == nil || btn == nil {
		t.Fatalf("cannot find the observation id and refs in:\n%s", text)
	}
	if out, isErr := call(map[string]any{"action": "fill", "observation": obsID[1], "target": map[string]any{"ref": box[1]}, "value": "Grace"}); isErr {
		t.Fatalf("fill: %s", out)
	}
	if out, isErr := call(map[string]any{"action": "click", "observation": obsID[1], "target": map[string]any{"ref": btn[1]}}); isErr {
		t.Fatalf("click: %s", out)
	}
	if n := s.submissions.Load(); n != 1 {
		t.Fatalf("the server received %d submissions through MCP, want 1", n)
	}
	out, isErr := call(map[string]any{"action": "click", "observation": obsID[1], "target": map[string]any{"ref": btn[1]}})
	if !isErr || !strings.Contains(out, "stale_observation") {
		t.Fatalf("a stale click through MCP gave %q (error %v), want stale_observation", out, isErr)
	}
	// An action sent with thenObserve answers with the page after it, whose
	// refs act at once.
	text, isErr = call(map[string]any{"action": "navigate", "url": s.URL + "/form", "thenObserve": true})
	obsID = regexp.MustCompile(`"observation":\s*"([^"]+)"`).FindStringSubmatch(text)
	box = regexp.MustCompile(`textbox "Name"[^\n]*\[ref=([^\]]+)\]`).FindStringSubmatch(text)
	if isErr || !strings.HasPrefix(text, "Observed ") || !strings.Contains(text, `"outcome":"loaded"`) || obsID == nil || box == nil {
		t.Fatalf("navigate with thenObserve through MCP answered:\n%s", text)
	}
	if out, isErr := call(map[string]any{"action": "fill", "observation": obsID[1], "target": map[string]any{"ref": box[1]}, "value": "Ada"}); isErr {
		t.Fatalf("fill on the observation a navigate brought: %s", out)
	}
}
