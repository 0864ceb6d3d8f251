package ui

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// hugeActors answers every tool call with a result past the answer bound:
// the seam stands in for a driver cap that failed.
type hugeActors struct{}

func (hugeActors) Tool(context.Context, *messages.ToolCall) (*messages.ToolResult, *messages.Error) {
	return &messages.ToolResult{Result: &messages.Closed{Closed: true, Text: strings.Repeat("x", messages.MaxAnswerBytes)}}, nil
}
func (hugeActors) Owner(context.Context, any) *messages.OwnerReply { return &messages.OwnerReply{} }
func (hugeActors) Identify(context.Context, string) (string, *messages.Error) {
	return "ada", nil
}
func (hugeActors) Health(context.Context) (*messages.Health, *messages.Error) {
	return &messages.Health{}, nil
}
func (hugeActors) Subscribe(events.Filter) *events.Subscription { return nil }

// No answer larger than messages.MaxAnswerBytes leaves buddi, over the HTTP
// API or over MCP: it is replaced by one sentence with answer_too_large.
func TestAnswersAreBounded(t *testing.T) {
	s, err := New(Config{Actors: hugeActors{}, Log: slog.New(slog.DiscardHandler), Addr: "127.0.0.1:7777"})
	if err != nil {
		t.Fatal(err)
	}
	var ctx fasthttp.RequestCtx
	ctx.Request.Header.SetMethod(fasthttp.MethodPost)
	ctx.Request.Header.Set("Authorization", "Bearer ba_x")
	ctx.Request.SetRequestURI("/api/tools/browser.status")
	ctx.Request.SetBodyString(`{"conversation":"c1","input":{}}`)
	s.route(&ctx)
	if n := len(ctx.Response.Body()); n > 4096 {
		t.Fatalf("the HTTP answer is %d bytes", n)
	}
	var env envelope
	if err := json.Unmarshal(ctx.Response.Body(), &env); err != nil || env.Error == nil || env.Error.Code != messages.CodeTooLarge {
		t.Fatalf("body %.200q is not an answer_too_large envelope", ctx.Response.Body())
	}
	_, err = mcpBackend{s}.Call(context.Background(), "ba_x", messages.ToolStatus, "c1", json.RawMessage(`{}`))
	if e := messages.ErrorOf(err, ""); e.Code != messages.CodeTooLarge {
		t.Fatalf("MCP call: %v, want answer_too_large", err)
	}
}
