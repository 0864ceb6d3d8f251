package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// mcpSetup is what an MCP client needs to reach buddi as one agent.
type mcpSetup struct {
	bin   string // this binary, by absolute path: clients start it without our PATH
	addr  string // the daemon, host:port
	url   string // the /mcp endpoint
	agent string
	token string
}

// newMCPSetup names the conversation after the agent; the HTTP form uses
// BUDDI_WEB_PUBLIC_ORIGIN when it is set.
func newMCPSetup(base, publicOrigin, agent, token string) mcpSetup {
	bin, err := os.Executable()
	if err != nil {
		bin = "buddi"
	}
	origin := base
	if publicOrigin != "" {
		origin = strings.TrimRight(publicOrigin, "/")
	}
	return mcpSetup{bin: bin, addr: strings.TrimPrefix(base, "http://"), url: origin + "/mcp", agent: agent, token: token}
}

func (m mcpSetup) args() []string {
	return []string{"mcp", "--addr", m.addr, "--conversation", m.agent}
}

// stdioServer and httpServer are one client's entry for buddi, fields in
// the order the clients' documentation shows them.
type stdioServer struct {
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

type httpServer struct {
	Type    string            `json:"type"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
}

func (m mcpSetup) stdio(typ string) stdioServer {
	return stdioServer{Type: typ, Command: m.bin, Args: m.args(), Env: map[string]string{"BUDDI_AGENT_TOKEN": m.token}}
}

func (m mcpSetup) http() httpServer {
	return httpServer{Type: "http", URL: m.url,
		Headers: map[string]string{"Authorization": "Bearer " + m.token, "Buddi-Conversation": m.agent}}
}

// print writes the ready configurations, token filled in, for the clients
// the README covers.
func (m mcpSetup) print(w io.Writer) {
	fmt.Fprintf(w, "# MCP configuration for agent %s, conversation %q. Give it a task first:\n", m.agent, m.agent)
	fmt.Fprintf(w, "#   buddi task start --agent %s --conversation %s \"what it should do\"\n\n", m.agent, m.agent)
	fmt.Fprintln(w, "# stdio: Claude Desktop (claude_desktop_config.json), Cursor (~/.cursor/mcp.json), Claude Code (.mcp.json)")
	fmt.Fprintln(w, indent(map[string]any{"mcpServers": map[string]any{"buddi": m.stdio("")}}))
	fmt.Fprintln(w, "\n# HTTP: Cursor (~/.cursor/mcp.json), Claude Code (.mcp.json)")
	fmt.Fprintln(w, indent(map[string]any{"mcpServers": map[string]any{"buddi": m.http()}}))
	fmt.Fprintln(w, "\n# VS Code (.vscode/mcp.json): stdio and HTTP")
	fmt.Fprintln(w, indent(map[string]any{"servers": map[string]any{"buddi": m.stdio("stdio"), "buddi-http": m.http()}}))
	fmt.Fprintln(w, "\n# Claude Code, from a shell: stdio, or HTTP")
	fmt.Fprintf(w, "claude mcp add --transport stdio --env BUDDI_AGENT_TOKEN=%s buddi -- %s %s\n", m.token, quote(m.bin), strings.Join(m.args(), " "))
	fmt.Fprintf(w, "claude mcp add --transport http buddi %s --header \"Authorization: Bearer %s\" --header \"Buddi-Conversation: %s\"\n",
		m.url, m.token, m.agent)
	fmt.Fprintln(w, "\n# Codex (~/.codex/config.toml): stdio")
	fmt.Fprintf(w, "[mcp_servers.buddi]\ncommand = %s\nargs = %s\nenv = { BUDDI_AGENT_TOKEN = %s }\ntool_timeout_sec = 120\n",
		str(m.bin), list(m.args()), str(m.token))
	fmt.Fprintln(w, "\n# Codex over HTTP: it reads the token from BUDDI_AGENT_TOKEN in the environment it starts in")
	fmt.Fprintf(w, "[mcp_servers.buddi-http]\nurl = %s\nbearer_token_env_var = \"BUDDI_AGENT_TOKEN\"\nhttp_headers = { \"Buddi-Conversation\" = %s }\ntool_timeout_sec = 120\n",
		str(m.url), str(m.agent))
}

func indent(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

// list is a TOML array of strings.
func list(items []string) string {
	quoted := make([]string, len(items))
	for i, it := range items {
		quoted[i] = str(it)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}

// str is a JSON string, which is also a TOML basic string.
func str(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// quote quotes a path for a POSIX shell when it needs it.
func quote(s string) string {
	if strings.ContainsAny(s, " \t'\"$`\\") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
}
