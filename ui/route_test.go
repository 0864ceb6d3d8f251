package ui

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/messages"
)

// toolsSeen records the tool of every call it is handed.
type toolsSeen struct {
	hugeActors
	tools []string
}

func (a *toolsSeen) Tool(_ context.Context, c *messages.ToolCall) (*messages.ToolResult, *messages.Error) {
	a.tools = append(a.tools, c.Tool)
	return &messages.ToolResult{Result: &messages.Closed{Closed: true}}, nil
}

// A tool's path names the tool the actors are handed; a path that names
// none is refused with unknown_tool and reaches no actor.
func TestToolPathsNameTheirTool(t *testing.T) {
	seen := &toolsSeen{}
	s, err := New(Config{Actors: seen, Log: slog.New(slog.DiscardHandler), Addr: "127.0.0.1:7777"})
	if err != nil {
		t.Fatal(err)
	}
	type answer struct{ Error *messages.Error }
	post := func(path string) answer {
		var ctx fasthttp.RequestCtx
		ctx.Request.Header.SetMethod(fasthttp.MethodPost)
		ctx.Request.Header.Set("Authorization", "Bearer ba_x")
		ctx.Request.SetRequestURI(path)
		ctx.Request.SetBodyString(`{"conversation":"c1","input":{"action":"observe"}}`)
		s.route(&ctx)
		var env answer
		if err := json.Unmarshal(ctx.Response.Body(), &env); err != nil {
			t.Fatalf("%s: body %.200q: %v", path, ctx.Response.Body(), err)
		}
		return env
	}
	for _, tool := range []string{messages.ToolAct, messages.ToolStatus} {
		if env := post("/api/tools/" + tool); env.Error != nil {
			t.Fatalf("%s: %s", tool, env.Error.Message)
		}
	}
	if env := post("/api/tools/browser.nope"); env.Error == nil || env.Error.Code != messages.CodeUnknownTool {
		t.Fatalf("an unknown tool answered %+v, want unknown_tool", env.Error)
	}
	if len(seen.tools) != 2 || seen.tools[0] != messages.ToolAct || seen.tools[1] != messages.ToolStatus {
		t.Fatalf("the actors were handed %q", seen.tools)
	}
}
