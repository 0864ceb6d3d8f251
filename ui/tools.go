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
	var b toolBody
	dec := json.NewDecoder(bytes.NewReader(ctx.PostBody()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		writeError(ctx, fasthttp.StatusBadRequest, "bad_input", "The body must be JSON like {\"conversation\": \"c1\", \"input\": {...}}.")
		return
	}
	tr, status := s.runTool(token, name, b.Conversation, b.Input)
	if tr.Error != nil {
		writeJSON(ctx, status, envelope{Error: tr.Error})
		return
	}
	writeOK(ctx, tr.Result)
}

// runTool checks one agent call and runs it through the controller: the one
// path of the HTTP API and of MCP over HTTP. The status is the HTTP API's
// for the answer.
func (s *Server) runTool(token, tool, conv string, input json.RawMessage) (*messages.ToolResult, int) {
	call, e := decodeCall(tool, conv, input)
	if e != nil {
		return &messages.ToolResult{Error: e}, fasthttp.StatusBadRequest
	}
	call.TokenHash = secret.Hash(token)
	res, e := s.ask(call, toolDeadline)
	if e != nil {
		return &messages.ToolResult{Error: e}, statusFor(e.Code)
	}
	tr, ok := res.(*messages.ToolResult)
	if !ok {
		return messages.Fail("internal", "buddi gave an unexpected answer."), fasthttp.StatusInternalServerError
	}
	if tr.Error != nil && tr.Error.Code == "unauthorized" {
		return tr, fasthttp.StatusUnauthorized
	}
	return tr, fasthttp.StatusOK
}

// decodeCall checks the conversation and, for browser.act, decodes the input.
func decodeCall(tool, conv string, input json.RawMessage) (*messages.ToolCall, *messages.Error) {
	if e := controller.CheckConversation(conv); e != nil {
		return nil, e
	}
	call := &messages.ToolCall{Conversation: conv, Tool: tool, Input: input}
	if tool == messages.ToolAct {
		in, err := session.Decode(input)
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
