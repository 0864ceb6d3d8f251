package ui

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"
	"unsafe"

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

// postTool calls tool on s over the HTTP API with body, as agent ba_x.
func postTool(s *Server, tool, body string) *fasthttp.RequestCtx {
	var ctx fasthttp.RequestCtx
	ctx.Request.Header.SetMethod(fasthttp.MethodPost)
	ctx.Request.Header.Set("Authorization", "Bearer ba_x")
	ctx.Request.SetRequestURI("/api/tools/" + tool)
	ctx.Request.SetBodyString(body)
	s.route(&ctx)
	return &ctx
}

// No answer larger than messages.MaxAnswerBytes leaves buddi, over the HTTP
// API or over MCP: it is replaced by one sentence with answer_too_large.
func TestAnswersAreBounded(t *testing.T) {
	s, err := New(Config{Actors: hugeActors{}, Log: slog.New(slog.DiscardHandler), Addr: "127.0.0.1:7777"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := postTool(s, "browser.status", `{"conversation":"c1","input":{}}`)
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

// lendingActors answers every tool call with an observation whose text
// lies in memory it lends, as a session lends its fenced block: freeing it
// writes over the memory, as the next answer written there would.
type lendingActors struct {
	hugeActors
	text   []byte
	frees  int
	refuse bool // the observation comes as a refusal's evidence
}

const lentText = "Observed 12:00:00 UTC.\n- link \"Home\" [ref=e1]"

func (a *lendingActors) Tool(context.Context, *messages.ToolCall) (*messages.ToolResult, *messages.Error) {
	a.text = []byte(lentText)
	o := &messages.Observation{ID: "o1.1", ObservedAt: time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC),
		Text: unsafe.String(unsafe.SliceData(a.text), len(a.text)), URL: "http://127.0.0.1:8765/", Tab: "t1"}
	o.Lend(a)
	if a.refuse {
		return messages.FailWith(&messages.Error{Code: messages.CodeStaleRef, Message: "Ref e9 is not on the page.", Observation: o}), nil
	}
	return &messages.ToolResult{Result: o}, nil
}

func (a *lendingActors) Free() {
	a.frees++
	for i := range a.text {
		a.text[i] = 'X'
	}
}

// An answer's lent text goes back once it is written out, and not before:
// the HTTP API's body and MCP's result still hold the text the session
// wrote after the memory is written over, and each frees it once; so does
// the HTTP API's refusal that brings the page as evidence.
func TestALentTextIsFreedOnceItIsWrittenOut(t *testing.T) {
	a := &lendingActors{}
	s, err := New(Config{Actors: a, Log: slog.New(slog.DiscardHandler), Addr: "127.0.0.1:7777"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := postTool(s, "browser.act", `{"conversation":"c1","input":{"action":"observe"}}`)
	var env struct {
		OK     bool                 `json:"ok"`
		Result messages.Observation `json:"result"`
	}
	if err := json.Unmarshal(ctx.Response.Body(), &env); err != nil || !env.OK || env.Result.Text != lentText {
		t.Fatalf("HTTP body %q (%v): want the observation with its text", ctx.Response.Body(), err)
	}
	if a.frees != 1 {
		t.Fatalf("the HTTP API freed the text %d times, want once", a.frees)
	}
	raw, err := mcpBackend{s}.Call(context.Background(), "ba_x", messages.ToolAct, "c1", json.RawMessage(`{"action":"observe"}`))
	if err != nil {
		t.Fatal(err)
	}
	var o messages.Observation
	if err := json.Unmarshal(raw, &o); err != nil || o.Text != lentText {
		t.Fatalf("MCP result %q (%v): want the observation with its text", raw, err)
	}
	if a.frees != 2 {
		t.Fatalf("MCP freed the text %d times, want once", a.frees-1)
	}

	// A refusal's evidence goes back too once the HTTP API wrote it.
	a.refuse = true
	ctx = postTool(s, "browser.act", `{"conversation":"c1","input":{"action":"click","observation":"o1.1","target":{"ref":"e9"}}}`)
	var refusal envelope
	if err := json.Unmarshal(ctx.Response.Body(), &refusal); err != nil || refusal.Error == nil || refusal.Error.Observation == nil ||
		refusal.Error.Observation.Text != lentText {
		t.Fatalf("HTTP body %q (%v): want the refusal with its evidence", ctx.Response.Body(), err)
	}
	if a.frees != 3 {
		t.Fatalf("the HTTP API freed the evidence %d times, want once", a.frees-2)
	}
}
