package ui

import (
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/valyala/fasthttp"
)

func TestPanickingHandlerAnswersWithOneSentence(t *testing.T) {
	s, err := New(Config{Log: slog.New(slog.DiscardHandler), Addr: "127.0.0.1:7777"})
	if err != nil {
		t.Fatal(err)
	}
	h := s.recovered(func(*fasthttp.RequestCtx) { panic("boom") })
	var ctx fasthttp.RequestCtx
	h(&ctx)
	if ctx.Response.StatusCode() != fasthttp.StatusInternalServerError {
		t.Fatalf("status %d, want 500", ctx.Response.StatusCode())
	}
	var env envelope
	if err := json.Unmarshal(ctx.Response.Body(), &env); err != nil || env.Error == nil || env.Error.Code != "internal" {
		t.Fatalf("body %q is not an internal error envelope", ctx.Response.Body())
	}
}
