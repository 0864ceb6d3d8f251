package ui

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/internal/bounded"
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
		writeError(ctx, &messages.Error{Code: messages.CodeMethodNotAllowed, Message: "Tools are called with POST."})
		return
	}
	if !slices.Contains(messages.Tools, name) {
		writeError(ctx, &messages.Error{Code: messages.CodeUnknownTool, Message: "There is no tool " + messages.Clip(name, 80) + "; use browser.status, browser.act or browser.task."})
		return
	}
	token, ok := bearerBytes(ctx)
	if !ok {
		writeError(ctx, &messages.Error{Code: messages.CodeUnauthorized, Message: "Send the agent token as `Authorization: Bearer <token>`; `buddi agent add NAME` makes one."})
		return
	}
	b, ok := decodeToolBody(ctx.PostBody())
	if !ok {
		writeError(ctx, &messages.Error{Code: messages.CodeBadInput, Message: "The body must be JSON like {\"conversation\": \"c1\", \"input\": {...}}."})
		return
	}
	tr, status := s.runTool(secret.HashBytes(token), name, b.Conversation, b.Input)
	if tr.Error != nil {
		writeJSON(ctx, status, envelope{Error: tr.Error})
		messages.FreeText(tr.Error.Observation) // the refusal's evidence, written out too
		return
	}
	writeOK(ctx, tr.Result)
	messages.FreeText(tr.Result) // copied into the response: the session's block goes back
}

// decodeToolBody reads the body as one JSON value, refusing unknown
// fields; the shape agents send is read without reflection.
func decodeToolBody(body []byte) (toolBody, bool) {
	if conv, input, ok := messages.SplitToolBody(body); ok {
		return toolBody{Conversation: conv, Input: input}, true
	}
	var b toolBody
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	return b, dec.Decode(&b) == nil
}

// runTool checks one agent call, made with the token whose hash is
// tokenHash, against the contract and runs it through the actors: the one
// path of the HTTP API and of MCP over HTTP. The status
// is the HTTP API's for the answer: a tool's own refusal is 200 (the agent
// reads its code), except unauthorized.
func (s *Server) runTool(tokenHash, tool, conv string, input json.RawMessage) (*messages.ToolResult, int) {
	call, e := decodeCall(tool, conv, input)
	if e != nil {
		return messages.FailWith(e), e.Code.HTTPStatus()
	}
	call.TokenHash = tokenHash
	c := bounded.New(toolDeadline)
	defer c.Cancel()
	tr, e := s.cfg.Actors.Tool(c, call)
	switch {
	case e != nil: // no answer came
		return messages.FailWith(e), e.Code.HTTPStatus()
	case tr.Error != nil && tr.Error.Code == messages.CodeUnauthorized:
		return tr, fasthttp.StatusUnauthorized
	}
	return tr, fasthttp.StatusOK
}

// decodeCall checks the conversation and, for browser.act, decodes the
// input against the contract.
func decodeCall(tool, conv string, input json.RawMessage) (*messages.ToolCall, *messages.Error) {
	if e := messages.CheckConversation(conv); e != nil {
		return nil, e
	}
	// The HTTP API and MCP answer an owner who uses the CLI: refusals name
	// the way back there. The dashboard and Telegram set their own surface.
	call := &messages.ToolCall{Conversation: conv, Tool: tool, Surface: messages.SurfaceCLI}
	if tool == messages.ToolAct {
		in, e := messages.DecodeAct(input)
		if e != nil {
			return nil, e
		}
		// The act is all the actors read of it: its raw input, which may
		// share the request's buffer, is not kept.
		call.Act = in
		return call, nil
	}
	// The call outlives the request's buffer (a task's input is read by
	// the controller): it keeps a copy.
	call.Input = bytes.Clone(input)
	return call, nil
}

func bearer(ctx *fasthttp.RequestCtx) (string, bool) {
	t, ok := bearerBytes(ctx)
	return string(t), ok
}

// bearerBytes is bearer's token in the request's own bytes, valid only
// while the request is served: the agent API hashes it and keeps no copy.
func bearerBytes(ctx *fasthttp.RequestCtx) ([]byte, bool) {
	h := ctx.Request.Header.Peek("Authorization")
	const p = "Bearer "
	if len(h) <= len(p) || !bytes.EqualFold(h[:len(p)], []byte(p)) {
		return nil, false
	}
	return bytes.TrimSpace(h[len(p):]), true
}
