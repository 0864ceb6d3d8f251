package mcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/buddi-dev/buddi/messages"
)

func TestListTools(t *testing.T) {
	d := newDaemon(t, answerJSON(http.StatusOK, `{"ok":true,"result":{}}`))
	cs := connect(t, config(d))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]map[string]any{}
	for _, tool := range res.Tools {
		if tool.Description == "" {
			t.Errorf("%s has no description", tool.Name)
		}
		b, _ := json.Marshal(tool.InputSchema)
		var schema map[string]any
		if err := json.Unmarshal(b, &schema); err != nil {
			t.Fatal(err)
		}
		byName[tool.Name] = schema
		if props, _ := schema["properties"].(map[string]any); props["conversation"] == nil {
			t.Errorf("%s: no conversation property in %s", tool.Name, b)
		}
		readOnly := tool.Annotations != nil && tool.Annotations.ReadOnlyHint
		if readOnly != (tool.Name == messages.ToolStatus) {
			t.Errorf("%s: read-only hint %v", tool.Name, readOnly)
		}
	}
	if len(byName) != 3 || byName[messages.ToolStatus] == nil || byName[messages.ToolAct] == nil || byName[messages.ToolTask] == nil {
		t.Fatalf("tools = %v, want browser.status, browser.act, browser.task", byName)
	}
	sameJSON(t, byName[messages.ToolAct]["required"], `["action"]`)
	sameJSON(t, byName[messages.ToolTask]["required"], `["description"]`)
	act := byName[messages.ToolAct]["properties"].(map[string]any)
	steps := act["steps"].(map[string]any)
	sameJSON(t, steps["maxItems"], `10`)
	step := steps["items"].(map[string]any)["properties"].(map[string]any)
	if step["steps"] != nil || step["conversation"] != nil || step["url"] == nil {
		t.Errorf("a script step's properties are %v", step)
	}
}

func TestInvalidInputIsNotForwarded(t *testing.T) {
	d := newDaemon(t, answerJSON(http.StatusOK, `{"ok":true,"result":{}}`))
	cs := connect(t, config(d))
	for name, args := range map[string]map[string]any{
		"no action":    {"url": "https://example.com/"},
		"unknown key":  {"action": "observe", "bogus": true},
		"nested steps": {"action": "script", "steps": []any{map[string]any{"action": "script", "steps": []any{}}}},
	} {
		t.Run(name, func(t *testing.T) {
			if res := call(t, cs, messages.ToolAct, args); !res.IsError {
				t.Errorf("result %q is not an error", text(t, res))
			}
		})
	}
	if got := d.received(); len(got) != 0 {
		t.Errorf("daemon received %v", got)
	}
}
