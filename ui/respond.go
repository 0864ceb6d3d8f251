package ui

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/messages"
)

// envelope is every API answer.
type envelope struct {
	OK     bool            `json:"ok"`
	Result any             `json:"result,omitempty"`
	Error  *messages.Error `json:"error,omitempty"`
}

func writeJSON(ctx *fasthttp.RequestCtx, status int, v any) {
	ctx.SetStatusCode(status)
	ctx.SetContentType("application/json")
	ctx.Response.Header.Set("Cache-Control", "no-store")
	if err := json.NewEncoder(ctx).Encode(v); err != nil {
		ctx.ResetBody()
		ctx.SetStatusCode(fasthttp.StatusInternalServerError)
		ctx.SetBodyString(`{"ok":false,"error":{"code":"internal","message":"The answer could not be encoded."}}`)
	}
}

func writeOK(ctx *fasthttp.RequestCtx, result any) {
	writeJSON(ctx, fasthttp.StatusOK, envelope{OK: true, Result: result})
}

func writeError(ctx *fasthttp.RequestCtx, status int, code, msg string) {
	writeJSON(ctx, status, envelope{Error: &messages.Error{Code: code, Message: msg}})
}

// ask sends msg to the controller and waits for the answer until d passes.
func (s *Server) ask(msg any, d time.Duration) (any, *messages.Error) {
	res, err := s.cfg.System.Root.RequestFuture(s.cfg.Controller, msg, d).Result()
	switch {
	case errors.Is(err, actor.ErrTimeout):
		return nil, &messages.Error{Code: "timeout", Message: "buddi did not answer in time; check `buddi sessions` and try again."}
	case err != nil:
		return nil, &messages.Error{Code: "internal", Message: "buddi could not handle the request: " + err.Error()}
	}
	return res, nil
}

// statusFor maps an error code to an HTTP status for the owner API.
func statusFor(code string) int {
	switch code {
	case "unauthorized":
		return fasthttp.StatusUnauthorized
	case "bad_input":
		return fasthttp.StatusBadRequest
	case "no_session", "unknown_agent", "no_pending_task", "no_pending_approval":
		return fasthttp.StatusNotFound
	case "agent_exists", "task_active", "too_many_sessions":
		return fasthttp.StatusConflict
	case "timeout":
		return fasthttp.StatusGatewayTimeout
	case "store_failed", "internal", "no_browser":
		return fasthttp.StatusInternalServerError
	}
	return fasthttp.StatusBadRequest
}
