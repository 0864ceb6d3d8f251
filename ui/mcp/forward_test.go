package mcp_test

import (
	"regexp"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/buddi-dev/buddi/messages"
	buddimcp "github.com/buddi-dev/buddi/ui/mcp"
)

var generated = regexp.MustCompile(`^mcp-[0-9a-f]{16}$`)

func TestActForwards(t *testing.T) {
	d := newDaemon(t, okResult(t, map[string]any{"text": "Clicked <Save>.", "url": "https://example.com/?a=1&b=2"}))
	cs := connect(t, config(d))
	res := call(t, cs, buddimcp.ToolAct, map[string]any{
		"action": "click", "observation": "o3", "target": map[string]any{"ref": "e12"},
	})
	if res.IsError {
		t.Fatalf("error result: %s", text(t, res))
	}
	want := "Clicked <Save>.\n\n" + `{"url":"https://example.com/?a=1&b=2"}`
	if got := text(t, res); got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
	sameJSON(t, res.StructuredContent, `{"text":"Clicked <Save>.","url":"https://example.com/?a=1&b=2"}`)

	got := d.received()
	if len(got) != 1 {
		t.Fatalf("daemon received %d calls, want 1", len(got))
	}
	c := got[0]
	if c.Tool != messages.ToolAct || c.Auth != "Bearer "+token || c.ContentType != "application/json" {
		t.Errorf("request: tool %q, auth %q, content type %q", c.Tool, c.Auth, c.ContentType)
	}
	if !generated.MatchString(c.Conversation) {
		t.Errorf("conversation = %q, want a generated mcp-<hex> id", c.Conversation)
	}
	sameJSON(t, c.Input, `{"action":"click","observation":"o3","target":{"ref":"e12"}}`)
}

func TestStatusAndTaskForward(t *testing.T) {
	d := newDaemon(t, okResult(t, map[string]any{"available": true}))
	cs := connect(t, config(d))
	call(t, cs, buddimcp.ToolStatus, nil)
	call(t, cs, buddimcp.ToolTask, map[string]any{"description": "Check the build page.", "steps": 5})
	call(t, cs, buddimcp.ToolAct, map[string]any{"action": "script", "steps": []any{
		map[string]any{"action": "navigate", "url": "https://example.com/"},
		map[string]any{"action": "dom", "maxChars": 100},
	}})
	got := d.received()
	if len(got) != 3 {
		t.Fatalf("daemon received %d calls, want 3", len(got))
	}
	sameJSON(t, got[0].Input, `{}`)
	sameJSON(t, got[1].Input, `{"description":"Check the build page.","steps":5}`)
	sameJSON(t, got[2].Input, `{"action":"script","steps":[{"action":"navigate","url":"https://example.com/"},{"action":"dom","maxChars":100}]}`)
	if got[0].Tool != messages.ToolStatus || got[1].Tool != messages.ToolTask {
		t.Errorf("tools = %q, %q", got[0].Tool, got[1].Tool)
	}
	for _, c := range got[1:] {
		if c.Conversation != got[0].Conversation {
			t.Errorf("conversation changed within a session: %q then %q", got[0].Conversation, c.Conversation)
		}
	}
}

func TestConversationPerSession(t *testing.T) {
	d := newDaemon(t, okResult(t, map[string]any{}))
	call(t, connect(t, config(d)), buddimcp.ToolStatus, nil)
	call(t, connect(t, config(d)), buddimcp.ToolStatus, nil)
	got := d.received()
	if len(got) != 2 || got[0].Conversation == got[1].Conversation {
		t.Errorf("two sessions used conversations %v", got)
	}
}

// connectFixed connects to a bridge whose configuration names conv.
func connectFixed(t *testing.T, conv string) (*daemon, *mcp.ClientSession) {
	t.Helper()
	d := newDaemon(t, okResult(t, map[string]any{}))
	cfg := config(d)
	cfg.Conversation = conv
	return d, connect(t, cfg)
}

func TestConversationOverride(t *testing.T) {
	d, cs := connectFixed(t, "fixed")
	call(t, cs, buddimcp.ToolStatus, nil)
	call(t, cs, buddimcp.ToolAct, map[string]any{"action": "observe", "conversation": "c-override"})
	call(t, cs, buddimcp.ToolTask, map[string]any{"description": "Read the docs.", "conversation": "c-task"})
	got := d.received()
	if len(got) != 3 {
		t.Fatalf("daemon received %d calls, want 3", len(got))
	}
	for i, want := range []string{"fixed", "c-override", "c-task"} {
		if got[i].Conversation != want {
			t.Errorf("call %d: conversation %q, want %q", i, got[i].Conversation, want)
		}
	}
	sameJSON(t, got[1].Input, `{"action":"observe"}`)
	sameJSON(t, got[2].Input, `{"description":"Read the docs."}`)
}

// After its agent moved the conversation, the bridge sends the calls that
// still name the old id (here, the configured one) to the new id.
func TestTheBridgeFollowsAMove(t *testing.T) {
	d, cs := connectFixed(t, "ada")
	call(t, cs, buddimcp.ToolStatus, nil)
	call(t, cs, buddimcp.ToolTask, map[string]any{"moveTo": "ada-2"})
	call(t, cs, buddimcp.ToolStatus, nil)
	call(t, cs, buddimcp.ToolAct, map[string]any{"action": "observe", "conversation": "ada"})
	got := d.received()
	if len(got) != 4 {
		t.Fatalf("daemon received %d calls, want 4", len(got))
	}
	for i, want := range []string{"ada", "ada", "ada-2", "ada-2"} {
		if got[i].Conversation != want {
			t.Errorf("call %d: conversation %q, want %q", i, got[i].Conversation, want)
		}
	}
	sameJSON(t, got[1].Input, `{"moveTo":"ada-2"}`)
}
