package main_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/buddi-dev/buddi/daemon/daemontest"
)

// snippets cuts the JSON objects (the lines from "{" to "}" at the start of
// a line) out of agent add --mcp's output.
func snippets(t *testing.T, out string) []map[string]map[string]map[string]any {
	t.Helper()
	var all []map[string]map[string]map[string]any
	var block []string
	for _, line := range strings.Split(out, "\n") {
		if line == "{" || block != nil {
			block = append(block, line)
		}
		if line == "}" {
			var v map[string]map[string]map[string]any
			if err := json.Unmarshal([]byte(strings.Join(block, "\n")), &v); err != nil {
				t.Fatalf("snippet is not JSON: %v\n%s", err, strings.Join(block, "\n"))
			}
			all, block = append(all, v), nil
		}
	}
	return all
}

// TestAgentAddMCPPrintsWorkingConfigurations uses the stdio and HTTP
// configurations agent add --mcp prints exactly as a client would, in the
// conversation the owner started a task for.
func TestAgentAddMCPPrintsWorkingConfigurations(t *testing.T) {
	dir := t.TempDir()
	s := serve(t, dir)
	r := runCLI(t, nil, "agent", "add", "ada", "--mcp", "--data", dir)
	if r.code != 0 || !strings.Contains(r.stdout, "buddi task start --agent ada --conversation ada") {
		t.Fatalf("agent add --mcp: exit %d out %q err %q", r.code, r.stdout, r.stderr)
	}
	blocks := snippets(t, r.stdout)
	codexHTTP := "[mcp_servers.buddi-http]\nurl = \"http://" + s.addr + "/mcp\"\nbearer_token_env_var = \"BUDDI_AGENT_TOKEN\"\n" +
		"http_headers = { \"Buddi-Conversation\" = \"ada\" }\n"
	if !strings.Contains(r.stdout, codexHTTP) {
		t.Errorf("no Codex HTTP entry for this serve and conversation:\n%s", r.stdout)
	}
	if len(blocks) != 3 {
		t.Fatalf("%d JSON snippets, want stdio, HTTP and VS Code:\n%s", len(blocks), r.stdout)
	}
	if r := runCLI(t, nil, "task", "start", "--agent", "ada", "--conversation", "ada", "--data", dir, "look"); r.code != 0 {
		t.Fatalf("task start: %q", r.stderr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	stdio := blocks[0]["mcpServers"]["buddi"]
	cmd := exec.Command(stdio["command"].(string))
	for _, a := range stdio["args"].([]any) {
		cmd.Args = append(cmd.Args, a.(string))
	}
	cmd.Env = cleanEnv()
	for k, v := range stdio["env"].(map[string]any) {
		cmd.Env = append(cmd.Env, k+"="+v.(string))
	}
	cmd.Dir = os.TempDir() // clients start it anywhere
	viaStdio := &mcp.CommandTransport{Command: cmd}

	web := blocks[1]["mcpServers"]["buddi"]
	if web["url"] != "http://"+s.addr+"/mcp" {
		t.Errorf("HTTP url %v, want http://%s/mcp", web["url"], s.addr)
	}
	headers := daemontest.Headers{}
	for k, v := range web["headers"].(map[string]any) {
		headers[k] = v.(string)
	}
	viaHTTP := &mcp.StreamableClientTransport{Endpoint: web["url"].(string),
		HTTPClient: &http.Client{Transport: headers}, MaxRetries: -1}

	for name, transport := range map[string]mcp.Transport{"stdio": viaStdio, "http": viaHTTP} {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: name, Version: "0"}, nil).Connect(ctx, transport, nil)
		if err != nil {
			t.Fatalf("%s: connect: %v", name, err)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "browser_act", Arguments: map[string]any{"action": "observe"}})
		if err != nil {
			t.Fatalf("%s: observe: %v", name, err)
		}
		if res.IsError {
			t.Fatalf("%s: observe in the task's conversation: %s", name, res.Content[0].(*mcp.TextContent).Text)
		}
		_ = cs.Close()
	}
}
