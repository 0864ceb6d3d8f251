package ui

import (
	"strconv"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/messages"
)

// trail serves GET /api/audit: the audit trail's newest lines, oldest
// first, picked by agent, conversation and time (RFC 3339).
func (s *Server) trail(ctx *fasthttp.RequestCtx, _ *caller, _ *messages.OwnerBody) {
	if s.cfg.Audit == nil {
		writeError(ctx, &messages.Error{Code: messages.CodeNotAvailable, Message: "This buddi keeps no audit trail."})
		return
	}
	f, e := trailFilter(ctx.QueryArgs())
	if e != nil {
		writeError(ctx, e)
		return
	}
	c, cancel := deadline(ownerDeadline)
	defer cancel()
	list, err := s.cfg.Audit(c, f)
	if err != nil {
		s.cfg.Log.Error("audit trail not read", "err", err)
		writeError(ctx, &messages.Error{Code: messages.CodeInternal, Message: "buddi could not read its audit trail; check the files under the data directory's audit folder."})
		return
	}
	writeOK(ctx, list)
}

func trailFilter(q *fasthttp.Args) (messages.AuditFilter, *messages.Error) {
	f := messages.AuditFilter{Agent: string(q.Peek("agent")), Conversation: string(q.Peek("conversation"))}
	for name, at := range map[string]*time.Time{"since": &f.Since, "until": &f.Until} {
		v := string(q.Peek(name))
		if v == "" {
			continue
		}
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			return f, &messages.Error{Code: messages.CodeBadInput, Message: name + " must be a time like 2026-01-02T15:04:05Z."}
		}
		*at = t
	}
	if v := string(q.Peek("limit")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > messages.AuditMaxLimit {
			return f, &messages.Error{Code: messages.CodeBadInput, Message: "limit must be a whole number from 1 to " + strconv.Itoa(messages.AuditMaxLimit) + "."}
		}
		f.Limit = n
	}
	return f, nil
}
