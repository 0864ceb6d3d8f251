package ui

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/secret"
)

// ownerBody is what owner routes accept; each route reads its own fields.
type ownerBody struct {
	Conversation string `json:"conversation"`
	All          bool   `json:"all"`
	Agent        string `json:"agent"`
	Description  string `json:"description"`
	Steps        int    `json:"steps"`
	Minutes      int    `json:"minutes"`
	Accept       bool   `json:"accept"`
	Name         string `json:"name"`
	AutoApprove  bool   `json:"autoApprove"`
	Site         string `json:"site"`
	Decision     string `json:"decision"`
}

// ownerRoute serves the owner API, authenticated by the owner token.
func (s *Server) ownerRoute(ctx *fasthttp.RequestCtx, path string) {
	token, ok := bearer(ctx)
	if !ok || !secret.Match(token, s.cfg.OwnerHash) {
		writeError(ctx, fasthttp.StatusUnauthorized, "unauthorized", "This needs the owner token (the file owner-token in the data directory) as `Authorization: Bearer <token>`.")
		return
	}
	var b ownerBody
	if ctx.IsPost() && len(ctx.PostBody()) > 0 {
		dec := json.NewDecoder(bytes.NewReader(ctx.PostBody()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&b); err != nil {
			writeError(ctx, fasthttp.StatusBadRequest, "bad_input", "The body is not valid JSON for this route: "+firstLine(err.Error()))
			return
		}
	}
	msg, e := ownerMessage(string(ctx.Method()), path, &b)
	if e != nil {
		writeError(ctx, statusFor(e.Code), e.Code, e.Message)
		if e.Code == "not_found" {
			ctx.SetStatusCode(fasthttp.StatusNotFound)
		}
		return
	}
	s.answerOwner(ctx, msg)
}

func (s *Server) answerOwner(ctx *fasthttp.RequestCtx, msg any) {
	res, e := s.ask(msg, ownerDeadline)
	if e != nil {
		writeError(ctx, statusFor(e.Code), e.Code, e.Message)
		return
	}
	r, ok := res.(*messages.OwnerReply)
	if !ok {
		writeError(ctx, fasthttp.StatusInternalServerError, "internal", "buddi gave an unexpected answer.")
		return
	}
	if r.Error != nil {
		writeError(ctx, statusFor(r.Error.Code), r.Error.Code, r.Error.Message)
		return
	}
	writeOK(ctx, r.Result)
}

// ownerMessage maps a method and path to the controller message.
func ownerMessage(method, path string, b *ownerBody) (any, *messages.Error) {
	key := method + " " + path
	if method == "DELETE" && strings.HasPrefix(path, "/api/agents/") {
		return &messages.RemoveAgent{Name: strings.TrimPrefix(path, "/api/agents/")}, nil
	}
	needConv := func(m any) (any, *messages.Error) {
		if b.Conversation == "" {
			return nil, &messages.Error{Code: "bad_input", Message: "Name the session: {\"conversation\": \"…\"}."}
		}
		return m, nil
	}
	switch key {
	case "GET /api/browser/sessions":
		return &messages.ListSessions{}, nil
	case "POST /api/browser/screenshots":
		return needConv(&messages.Screenshots{Conversation: b.Conversation})
	case "POST /api/browser/takeover":
		return needConv(&messages.TakeOver{Conversation: b.Conversation})
	case "POST /api/browser/resume":
		if b.All {
			return &messages.ResumeAll{}, nil
		}
		return needConv(&messages.Resume{Conversation: b.Conversation})
	case "POST /api/browser/release":
		return needConv(&messages.Release{Conversation: b.Conversation})
	case "POST /api/browser/stop":
		return &messages.StopAll{}, nil
	case "GET /api/tasks":
		return &messages.ListTasks{}, nil
	case "POST /api/tasks":
		return &messages.StartTask{Agent: b.Agent, Conversation: b.Conversation, Description: b.Description,
			Steps: b.Steps, Lifetime: time.Duration(b.Minutes) * time.Minute}, nil
	case "POST /api/tasks/decide":
		return needConv(&messages.DecideTask{Conversation: b.Conversation, Accept: b.Accept})
	case "GET /api/approvals":
		return &messages.ListSiteRequests{}, nil
	case "POST /api/approvals":
		switch b.Decision {
		case "once", "always", "reject":
		default:
			return nil, &messages.Error{Code: "bad_input", Message: "The decision must be once, always or reject."}
		}
		return needConv(&messages.DecideSite{Conversation: b.Conversation, Site: b.Site, Decision: b.Decision})
	case "GET /api/agents":
		return &messages.ListAgents{}, nil
	case "POST /api/agents":
		return &messages.AddAgent{Name: b.Name, AutoApprove: b.AutoApprove}, nil
	}
	return nil, &messages.Error{Code: "not_found", Message: "There is no owner route " + clip(key) + "."}
}

func asErr(err error, target **messages.Error) bool { return errors.As(err, target) }
