package ui

import (
	"bytes"
	"encoding/json"

	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/actors/controller"
	"github.com/buddi-dev/buddi/actors/session"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/secret"
)

// toolBody is the agent API's request body.
type toolBody struct {
	Conversation string          `json:"conversation"`
	Input        json.RawMessage `json:"input"`
}

// tool serves POST /api/tools/<tool>.
func (s *Server) tool(ctx *fasthttp.RequestCtx, name string) {
	if !ctx.IsPost() {
		writeError(ctx, fasthttp.StatusMethodNotAllowed, "method_not_allowed", "Tools are called with POST.")
		return
	}
	switch name {
	case messages.ToolStatus, messages.ToolAct, messages.ToolTask:
	default:
		writeError(ctx, fasthttp.StatusNotFound, "unknown_tool", "There is no tool "+clip(name)+"; use browser.status, browser.act or browser.task.")
		return
	}
	token, ok := bearer(ctx)
	if !ok {
		writeError(ctx, fasthttp.StatusUnauthorized, "unauthorized", "Send the agent token as `Authorization: Bearer <token>`; `buddi agent add NAME` makes one.")
		return
	}
	call, e := decodeCall(ctx.PostBody(), name)
	if e != nil {
		writeError(ctx, fasthttp.StatusBadRequest, e.Code, e.Message)
		return
	}
	call.TokenHash = secret.Hash(token)
	res, e := s.ask(call, toolDeadline)
	if e != nil {
		writeError(ctx, statusFor(e.Code), e.Code, e.Message)
		return
	}
	tr, ok := res.(*messages.ToolResult)
	if !ok {
		writeError(ctx, fasthttp.StatusInternalServerError, "internal", "buddi gave an unexpected answer.")
		return
	}
	if tr.Error != nil {
		status := fasthttp.StatusOK
		if tr.Error.Code == "unauthorized" {
			status = fasthttp.StatusUnauthorized
		}
		writeJSON(ctx, status, envelope{Error: tr.Error})
		return
	}
	writeOK(ctx, tr.Result)
}

// decodeCall reads the body and, for browser.act, decodes the input.
func decodeCall(body []byte, tool string) (*messages.ToolCall, *messages.Error) {
	var b toolBody
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, &messages.Error{Code: "bad_input", Message: "The body must be JSON like {\"conversation\": \"c1\", \"input\": {...}}."}
	}
	if e := controller.CheckConversation(b.Conversation); e != nil {
		return nil, e
	}
	call := &messages.ToolCall{Conversation: b.Conversation, Tool: tool, Input: b.Input}
	if tool == messages.ToolAct {
		in, err := session.Decode(b.Input)
		if err != nil {
			var me *messages.Error
			if asErr(err, &me) {
				return nil, me
			}
			return nil, &messages.Error{Code: "bad_input", Message: err.Error()}
		}
		call.Act = in
	}
	return call, nil
}

func bearer(ctx *fasthttp.RequestCtx) (string, bool) {
	h := ctx.Request.Header.Peek("Authorization")
	const p = "Bearer "
	if len(h) <= len(p) || !bytes.EqualFold(h[:len(p)], []byte(p)) {
		return "", false
	}
	return string(bytes.TrimSpace(h[len(p):])), true
}
