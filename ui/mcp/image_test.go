package mcp_test

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	buddimcp "github.com/buddi-dev/buddi/ui/mcp"
)

func TestScreenshotIsImage(t *testing.T) {
	jpeg := []byte{0xff, 0xd8, 0xff, 0xe0, 'J', 'F', 'I', 'F', 0, 0xff, 0xd9}
	shot := base64.StdEncoding.EncodeToString(jpeg)
	d := newDaemon(t, okResult(t, map[string]any{"text": "Observed.", "observation": "o1", "screenshot": shot}))
	res := call(t, connect(t, config(d)), buddimcp.ToolAct, map[string]any{"action": "observe", "screenshot": true})
	if res.IsError || len(res.Content) != 2 {
		t.Fatalf("IsError %v, %d contents, want 2", res.IsError, len(res.Content))
	}
	if got := text(t, res); got != "Observed.\n\n"+`{"observation":"o1"}` {
		t.Errorf("text = %q", got)
	}
	img, ok := res.Content[1].(*mcp.ImageContent)
	if !ok {
		t.Fatalf("second content is %T, want *mcp.ImageContent", res.Content[1])
	}
	if img.MIMEType != "image/jpeg" || !bytes.Equal(img.Data, jpeg) {
		t.Errorf("image %s, %x; want image/jpeg, %x", img.MIMEType, img.Data, jpeg)
	}
	sameJSON(t, res.StructuredContent, `{"text":"Observed.","observation":"o1"}`)
}

func TestResultShapes(t *testing.T) {
	for name, tc := range map[string]struct{ result, want string }{
		"text only":     {`{"text":"Done."}`, "Done."},
		"observation":   {`{"text":"Observed 12:04:35 UTC.","observation":"o1","observedAt":"2026-12-01T12:04:35Z"}`, "Observed 12:04:35 UTC.\n\n" + `{"observation":"o1"}`},
		"time, no text": {`{"observedAt":"2026-12-01T12:04:35Z"}`, `{"observedAt":"2026-12-01T12:04:35Z"}`},
		"no text":       {`{"tabs":["t1"],"n":2}`, `{"n":2,"tabs":["t1"]}`},
		"empty":         {`{}`, `{}`},
		"non-string":    {`{"text":3}`, `{"text":3}`},
		"bad shot":      {`{"screenshot":"not base64!"}`, `{"screenshot":"not base64!"}`},
		"string result": {`"plain words"`, "plain words"},
		"array result":  {`[1, 2]`, `[1,2]`},
		"null result":   {`null`, `null`},
	} {
		t.Run(name, func(t *testing.T) {
			d := newDaemon(t, answerJSON(200, `{"ok":true,"result":`+tc.result+`}`))
			res := call(t, connect(t, config(d)), buddimcp.ToolStatus, nil)
			if got := text(t, res); res.IsError || got != tc.want || len(res.Content) != 1 {
				t.Errorf("IsError %v, text %q (%d contents), want %q", res.IsError, got, len(res.Content), tc.want)
			}
			if strings.HasPrefix(tc.result, "{") && res.StructuredContent == nil {
				t.Error("no structured content for an object result")
			}
		})
	}
}
