package messages_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/messages"
)

// samples is one value for each field some actions take and others do not.
var samples = map[string]any{
	"target": map[string]any{"ref": "e1"}, "url": "https://example.com/", "urlSource": "agent", "value": "blue",
	"values": []string{"blue"}, "secret": "mail", "key": "Enter", "deltaY": 300, "tab": "list", "tabId": "t1",
	"wait": map[string]any{"text": "done"}, "fullPage": true, "within": "e2", "after": "e3", "rows": "1-5",
	"text": "Next", "role": "link", "name": "Next", "exact": true, "screenshot": true, "fullRes": true,
	"maxChars": 100, "selector": "main", "steps": []any{map[string]any{"action": "screenshot"}}, "appId": "com.example.app",
	"app": "Example",
}

// Every action, given every field: a field it does not take is refused
// with a sentence naming the field and the ones it does take; a field it
// takes never is.
func TestAnActionRefusesTheFieldsItDoesNotTake(t *testing.T) {
	for _, spec := range messages.Actions() {
		takes := strings.Fields(spec.Takes)
		for field, v := range samples {
			in := map[string]any{"action": spec.Name, "observation": "o1.1", field: v}
			raw, err := json.Marshal(in)
			if err != nil {
				t.Fatal(err)
			}
			_, e := messages.DecodeAct(raw)
			stray := e != nil && strings.Contains(e.Message, `takes no "`+field+`"`)
			switch took := slices.Contains(takes, field); {
			case took && stray:
				t.Errorf("%s refused %q, one of its own fields: %s", spec.Name, field, e.Message)
			case !took && !stray:
				t.Errorf("%s given %q (not one of its fields %v) answered %v, want bad_input naming it", spec.Name, field, takes, e)
			case !took && (e.Code != messages.CodeBadInput || (len(takes) > 0 && !strings.Contains(e.Message, `"`+takes[0]+`"`))):
				t.Errorf("%s given %q: %v, want bad_input naming the fields it takes", spec.Name, field, e)
			}
		}
	}
}

// A fill given its text as find's "text" (Playwright MCP's name for it) is
// refused, naming "value", instead of typing nothing; a script's step is
// held to its own fields too.
func TestAFillGivenItsTextAsTextIsToldToUseValue(t *testing.T) {
	for raw, want := range map[string]string{
		`{"action":"fill","observation":"o1.1","target":{"ref":"e11"},"text":"tuple"}`:                  `fill takes no "text"; its fields are "target" and "value"`,
		`{"action":"script","steps":[{"action":"click","target":{"ref":"e11"},"text":"Next chapter"}]}`: `script step 1: click takes no "text"`,
	} {
		if _, e := messages.DecodeAct([]byte(raw)); e == nil || e.Code != messages.CodeBadInput || !strings.Contains(e.Message, want) {
			t.Errorf("%s: %v, want bad_input saying %s", raw, e, want)
		}
	}
}
