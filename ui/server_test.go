package ui

import (
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/valyala/fasthttp"
)

func TestPanickingHandlerAnswersWithOneSentence(t *testing.T) {
	s := New(Config{Log: slog.New(slog.DiscardHandler)})
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
