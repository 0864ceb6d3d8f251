package mcp_test

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	buddimcp "github.com/buddi-dev/buddi/ui/mcp"
)

// FuzzRender feeds daemon results to the renderer: whatever the daemon
// sends, the agent gets a text first and a result that encodes.
func FuzzRender(f *testing.F) {
	f.Add([]byte(`{"text":"Observed.","observation":"o1","screenshot":"/9j/4AAQ"}`))
	f.Add([]byte(`{"tabs":[{"id":"t1","url":"https://example.com/"}],"n":1e400}`))
	f.Add([]byte(`"words"`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		res := buddimcp.Render(raw)
		if len(res.Content) == 0 {
			t.Fatal("no content")
		}
		if _, ok := res.Content[0].(*mcp.TextContent); !ok {
			t.Fatalf("first content is %T", res.Content[0])
		}
		if _, err := json.Marshal(res); err != nil {
			t.Fatalf("result does not encode: %v", err)
		}
	})
}
