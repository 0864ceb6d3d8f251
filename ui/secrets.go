package ui

import (
	"errors"

	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/messages"
)

// The owner's secrets on the dashboard: GET /api/secrets lists names and
// origins, POST /api/secrets stores one (replacing one of the same name),
// POST /api/secrets/remove forgets one. No answer carries a value.

func (s *Server) listSecrets(ctx *fasthttp.RequestCtx, _ *caller, _ *messages.OwnerBody) {
	if s.noVault(ctx) {
		return
	}
	list, err := s.cfg.Secrets.List()
	if err != nil {
		s.vaultFailed(ctx, err)
		return
	}
	writeOK(ctx, &messages.SecretList{Secrets: list})
}

func (s *Server) addSecret(ctx *fasthttp.RequestCtx, _ *caller, b *messages.OwnerBody) {
	if s.noVault(ctx) {
		return
	}
	if b.Value == "" {
		writeError(ctx, &messages.Error{Code: messages.CodeBadInput, Message: "A secret needs a value; type it in the value field."})
		return
	}
	if err := s.cfg.Secrets.Add(b.Name, b.Origins, b.Value); err != nil {
		s.vaultFailed(ctx, err)
		return
	}
	s.listSecrets(ctx, nil, nil)
}

func (s *Server) removeSecret(ctx *fasthttp.RequestCtx, _ *caller, b *messages.OwnerBody) {
	if s.noVault(ctx) {
		return
	}
	if err := s.cfg.Secrets.Remove(b.Name); err != nil {
		s.vaultFailed(ctx, err)
		return
	}
	s.listSecrets(ctx, nil, nil)
}

func (s *Server) noVault(ctx *fasthttp.RequestCtx) bool {
	if s.cfg.Secrets != nil {
		return false
	}
	writeError(ctx, &messages.Error{Code: messages.CodeNotAvailable, Message: "This buddi keeps no owner secrets."})
	return true
}

// vaultFailed answers the vault's own refusal (bad input, an unknown
// name), or one sentence for a failure of the file itself.
func (s *Server) vaultFailed(ctx *fasthttp.RequestCtx, err error) {
	if e := (*messages.Error)(nil); errors.As(err, &e) {
		writeError(ctx, e)
		return
	}
	s.cfg.Log.Error("owner secrets not read or written", "err", err)
	writeError(ctx, &messages.Error{Code: messages.CodeStoreFailed, Message: "buddi could not read or write the owner's secrets file; check secrets.json in the data directory."})
}
