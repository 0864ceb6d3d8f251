package mcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/buddi-dev/buddi/messages"
	buddimcp "github.com/buddi-dev/buddi/ui/mcp"
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
		if readOnly != (tool.Name == buddimcp.ToolStatus) {
			t.Errorf("%s: read-only hint %v", tool.Name, readOnly)
		}
	}
	if len(byName) != 3 || byName[buddimcp.ToolStatus] == nil || byName[buddimcp.ToolAct] == nil || byName[buddimcp.ToolTask] == nil {
		t.Fatalf("tools = %v, want browser.status, browser.act, browser.task", byName)
	}
	sameJSON(t, byName[buddimcp.ToolAct]["required"], `["action"]`)
	sameJSON(t, byName[buddimcp.ToolTask]["required"], `null`) // a description, or moveTo alone
	if byName[buddimcp.ToolTask]["properties"].(map[string]any)["moveTo"] == nil {
		t.Errorf("browser_task offers no moveTo: %v", byName[buddimcp.ToolTask]["properties"])
	}
	act := byName[buddimcp.ToolAct]["properties"].(map[string]any)
	steps := act["steps"].(map[string]any)
	sameJSON(t, steps["maxItems"], `10`)
	step := steps["items"].(map[string]any)["properties"].(map[string]any)
	if step["steps"] != nil || step["conversation"] != nil || step["url"] == nil {
		t.Errorf("a script step's properties are %v", step)
	}
}

// Input buddi would refuse is refused by the bridge with buddi's code and
// a sentence that says what to send, and never forwarded.
func TestInvalidInputIsRefusedWithACodeAndNotForwarded(t *testing.T) {
	d := newDaemon(t, answerJSON(http.StatusOK, `{"ok":true,"result":{}}`))
	cs := connect(t, config(d))
	for _, c := range []struct {
		name, tool string
		args       map[string]any
		says       string
	}{
		{"no action", buddimcp.ToolAct, map[string]any{"url": "https://example.com/"}, `"" is not an action`},
		{"unknown key", buddimcp.ToolAct, map[string]any{"action": "observe", "bogus": true}, `unknown field "bogus"`},
		{"the HTTP body's wrapper", buddimcp.ToolAct, map[string]any{"input": map[string]any{"action": "observe"}}, `send the action's fields themselves`},
		{"an object for a string", buddimcp.ToolAct, map[string]any{"action": "click", "observation": map[string]any{"observation": "o1.2"}, "target": map[string]any{"ref": "e1"}},
			"field observation should be a string, not object"},
		{"a string for an object", buddimcp.ToolAct, map[string]any{"action": "click", "observation": "o1.2", "target": "e1"}, "field target should be an object, not string"},
		{"nested steps", buddimcp.ToolAct, map[string]any{"action": "script", "steps": []any{map[string]any{"action": "script", "steps": []any{}}}}, "a script may hold only"},
		{"a click without its observation", buddimcp.ToolAct, map[string]any{"action": "click", "target": map[string]any{"ref": "e1"}}, `click needs "observation"`},
		{"status with an unknown key", buddimcp.ToolStatus, map[string]any{"verbose": true}, `unknown field "verbose"`},
		{"a task's steps as text", buddimcp.ToolTask, map[string]any{"description": "read the news", "steps": "ten"}, "field steps should be a whole number, not string"},
		{"a task without a description", buddimcp.ToolTask, map[string]any{"steps": 10}, "browser_task needs a description"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := call(t, cs, c.tool, c.args)
			got := text(t, res)
			if !res.IsError || !strings.HasPrefix(got, "bad_input: ") || !strings.Contains(got, c.says) {
				t.Errorf("IsError %v, text %q; want bad_input saying %q", res.IsError, got, c.says)
			}
			if strings.Contains(got, "browser.") {
				t.Errorf("the sentence names a tool by its HTTP name: %q", got)
			}
		})
	}
	if got := d.received(); len(got) != 0 {
		t.Errorf("daemon received %v", got)
	}
}

// toolName is the pattern widely used clients hold tool names to.
var toolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

func TestToolNamesAreValidAndDocsUseThem(t *testing.T) {
	d := newDaemon(t, answerJSON(http.StatusOK, `{"ok":true,"result":{}}`))
	cs := connect(t, config(d))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	docs := []string{cs.InitializeResult().Instructions}
	for _, tool := range res.Tools {
		if !toolName.MatchString(tool.Name) {
			t.Errorf("tool name %q does not match %s", tool.Name, toolName)
		}
		listed[tool.Name] = true
		schema, _ := json.Marshal(tool.InputSchema)
		docs = append(docs, tool.Description, string(schema))
	}
	mentioned := regexp.MustCompile(`browser[._][a-z]+`)
	for _, doc := range docs {
		for _, name := range mentioned.FindAllString(doc, -1) {
			if !listed[name] {
				t.Errorf("the server's text names %q, which it does not list: %q", name, doc)
			}
		}
	}
	if !strings.Contains(docs[0], buddimcp.ToolStatus) {
		t.Errorf("the instructions do not name %s: %q", buddimcp.ToolStatus, docs[0])
	}
}

func TestDottedNameIsAnErrorNamingTheRightTool(t *testing.T) {
	d := newDaemon(t, answerJSON(http.StatusOK, `{"ok":true,"result":{}}`))
	cs := connect(t, config(d))
	for dotted, right := range map[string]string{
		messages.ToolStatus: buddimcp.ToolStatus, messages.ToolAct: buddimcp.ToolAct, messages.ToolTask: buddimcp.ToolTask,
	} {
		_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: dotted, Arguments: map[string]any{"action": "observe"}})
		if err == nil || !strings.Contains(err.Error(), "call "+right+" instead") {
			t.Errorf("calling %s: %v; want an error naming %s", dotted, err, right)
		}
	}
	if got := d.received(); len(got) != 0 {
		t.Errorf("daemon received %v", got)
	}
}

func TestErrorSentencesNameMCPTools(t *testing.T) {
	d := newDaemon(t, answerJSON(http.StatusOK,
		`{"ok":false,"error":{"code":"no_task","message":"There is no task; ask the owner for one with browser.task."}}`))
	res := call(t, connect(t, config(d)), buddimcp.ToolAct, map[string]any{"action": "observe"})
	if got := text(t, res); got != "no_task: There is no task; ask the owner for one with browser_task." {
		t.Errorf("text %q", got)
	}
}
