package e2e_test

import (
	"encoding/base64"
	"regexp"
	"strings"
	"testing"
)

// validToolName is the pattern widely used clients hold tool names to.
var validToolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// TestE2ETypeScriptClientOverBothTransports drives buddi serve (real
// Chromium) with the official MCP TypeScript SDK client, over stdio through
// `buddi mcp` and over streamable HTTP at /mcp: list the tools, ask for a
// task the owner then accepts, navigate, observe, click, take a screenshot,
// and call a tool by its dotted name.
func TestE2ETypeScriptClientOverBothTransports(t *testing.T) {
	needTSClient(t)
	s := newSite(t)
	b := serve(t, "", "BUDDI_PREVIEW_ORIGINS="+s.URL)
	tok := b.AddAgent(t, "ada", false)
	for name, args := range map[string][]string{
		"stdio": {"stdio", bin, "mcp", "--addr", b.addr, "--conversation", "ts-stdio"},
		"http":  {"http", "http://" + b.addr + "/mcp"},
	} {
		t.Run(name, func(t *testing.T) {
			conv := "ts-" + name
			c, hello := startTS(t, []string{"BUDDI_AGENT_TOKEN=" + tok, "BUDDI_CONVERSATION=" + conv}, args...)
			if !strings.Contains(hello.Instructions, "browser_task") {
				t.Errorf("instructions do not name browser_task: %q", hello.Instructions)
			}
			tools := c.send(map[string]any{"op": "list"}).Tools
			names := map[string]bool{}
			for _, tl := range tools {
				if !validToolName.MatchString(tl.Name) {
					t.Errorf("tool name %q does not match %s", tl.Name, validToolName)
				}
				names[tl.Name] = true
			}
			if len(tools) != 3 || !names["browser_status"] || !names["browser_act"] || !names["browser_task"] {
				t.Fatalf("tools %v, want browser_status, browser_act and browser_task", names)
			}

			res := c.call("browser_task", map[string]any{"description": "Read the test site.", "steps": 20})
			if res.IsError || !strings.Contains(res.text(), "browser_status") {
				t.Fatalf("browser_task: %s", res.text())
			}
			if res := c.call("browser_act", map[string]any{"action": "observe"}); !res.IsError || !strings.HasPrefix(res.text(), "task_pending: ") {
				t.Fatalf("acting before the owner accepted: %s", res.text())
			}
			b.Must(t, "POST", "/api/tasks/decide", in{"conversation": conv, "accept": true})

			if res := c.call("browser_act", map[string]any{"action": "navigate", "url": s.URL + "/"}); res.IsError {
				t.Fatalf("navigate: %s", res.text())
			}
			obs := c.call("browser_act", map[string]any{"action": "observe"})
			text := obs.text()
			id := regexp.MustCompile(`"observation":\s*"([^"]+)"`).FindStringSubmatch(text)
			link := regexp.MustCompile(`link "Next page"[^\n]*\[ref=([^\]]+)\]`).FindStringSubmatch(text)
			if obs.IsError || id == nil || link == nil {
				t.Fatalf("observe gave no observation id or link ref:\n%s", text)
			}
			click := c.call("browser_act", map[string]any{"action": "click", "observation": id[1], "target": in{"ref": link[1]}})
			if click.IsError || !strings.Contains(click.text(), s.URL+"/next") {
				t.Fatalf("click: %s", click.text())
			}
			shot := c.call("browser_act", map[string]any{"action": "screenshot"})
			var img []byte
			for _, ct := range shot.Content {
				if ct.Type == "image" && ct.MIMEType == "image/jpeg" {
					img, _ = base64.StdEncoding.DecodeString(ct.Data)
				}
			}
			if shot.IsError || len(img) < 3 || img[0] != 0xff || img[1] != 0xd8 {
				t.Fatalf("screenshot is not a JPEG image content: %s", shot.text())
			}

			a := c.send(map[string]any{"op": "call", "name": "browser.act", "arguments": in{"action": "observe"}})
			if !strings.Contains(a.Error, "browser_act") {
				t.Errorf("calling browser.act: %q; want an error naming browser_act", a.Error)
			}
		})
	}
}
