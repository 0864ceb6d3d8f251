package loadtest

import (
	"encoding/json"
	"testing"

	"github.com/buddi-dev/buddi/messages"
)

// TestBodiesAreWhatTheAPIDecodes checks the hand-encoded bodies with the
// daemon's own decoder.
func TestBodiesAreWhatTheAPIDecodes(t *testing.T) {
	acts := map[string]*act{
		"observe":  {action: "observe"},
		"navigate": {action: "navigate", url: "https://sim.localhost/p/3"},
		"click":    {action: "click", observation: "o1.2", ref: "e12"},
		"fill":     {action: "fill", observation: "o1.2", ref: "e3", value: "say \"hi\"\n\\ é \t"},
		"select":   {action: "select", observation: "o1.2", ref: "e9", values: "Norway"},
		"press":    {action: "press", observation: "o1.2", key: "End"},
		"scroll":   {action: "scroll", observation: "o1.2", deltaY: 400},
	}
	for name, a := range acts {
		var body struct {
			Conversation string          `json:"conversation"`
			Input        json.RawMessage `json:"input"`
		}
		b := a.appendBody(nil, "c00001")
		if err := json.Unmarshal(b, &body); err != nil || body.Conversation != "c00001" {
			t.Errorf("%s: %s is not the API's envelope: %v", name, b, err)
			continue
		}
		in, e := messages.DecodeAct(body.Input)
		if e != nil {
			err := e
			t.Errorf("%s: the daemon refuses %s: %v", name, body.Input, err)
			continue
		}
		if in.Action != a.action || in.Value != a.value {
			t.Errorf("%s: decoded %+v", name, in)
		}
	}
}
