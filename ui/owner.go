package ui

import (
	"strings"

	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/messages"
)

// ownerRoute serves the owner API: to the owner token's holder, and to a
// signed-in dashboard (see owner). A route the server answers itself comes
// first; every other one is a message to the actors.
func (s *Server) ownerRoute(ctx *fasthttp.RequestCtx, path string) {
	who, e := s.owner(ctx)
	if e != nil {
		writeError(ctx, e)
		return
	}
	if s.telegramRoute(ctx, string(ctx.Method())+" "+path) {
		return
	}
	var raw []byte
	if ctx.IsPost() {
		raw = ctx.PostBody()
	}
	b, e := messages.DecodeOwnerBody(raw)
	if e != nil {
		writeError(ctx, e)
		return
	}
	key := string(ctx.Method()) + " " + path
	if h, ok := localRoutes[key]; ok {
		h(s, ctx, who, b)
		return
	}
	msg, e := ownerMessage(string(ctx.Method()), path, b)
	if e != nil {
		writeError(ctx, e)
		return
	}
	s.ask(ctx, msg)
}

// ask sends one owner message to the actors and writes the answer.
func (s *Server) ask(ctx *fasthttp.RequestCtx, msg any) {
	r := s.tell(msg)
	if r.Error != nil {
		writeError(ctx, r.Error)
		return
	}
	writeOK(ctx, r.Result)
}

// ownerRoutes maps a method and path to the message its body makes.
var ownerRoutes = map[string]func(*messages.OwnerBody) (any, *messages.Error){
	"GET /api/browser/sessions":     fixed(&messages.ListSessions{}),
	"POST /api/browser/screenshots": (*messages.OwnerBody).Screenshots,
	"POST /api/browser/takeover":    (*messages.OwnerBody).TakeOver,
	"POST /api/browser/resume":      (*messages.OwnerBody).Resume,
	"POST /api/browser/release":     (*messages.OwnerBody).Release,
	"POST /api/browser/move":        (*messages.OwnerBody).Move,
	"POST /api/browser/stop":        fixed(&messages.StopAll{}),
	"POST /api/browser/open":        (*messages.OwnerBody).OpenBrowser,
	"GET /api/tasks":                fixed(&messages.ListTasks{}),
	"POST /api/tasks":               (*messages.OwnerBody).StartTask,
	"POST /api/tasks/decide":        (*messages.OwnerBody).DecideTask,
	"GET /api/approvals":            fixed(&messages.ListSiteRequests{}),
	"POST /api/approvals":           (*messages.OwnerBody).DecideSite,
	"GET /api/agents":               fixed(&messages.ListAgents{}),
	"POST /api/agents":              (*messages.OwnerBody).AddAgent,
	"GET /api/settings/browser":     fixed(&messages.GetSettings{}),
	"POST /api/settings/browser":    (*messages.OwnerBody).ChangeSettings,
	"DELETE /api/telegram/pair":     fixed(&messages.UnpairTelegram{}),
	"POST /api/telegram/bind":       (*messages.OwnerBody).Bind,
	"POST /api/telegram/unbind":     (*messages.OwnerBody).Unbind,

	// The owner's answers about sites, and revoking them.
	"GET /api/browser/sites":         fixed(&messages.ListSites{}),
	"POST /api/browser/sites/revoke": (*messages.OwnerBody).RevokeSite,
	// The sites holding logins in the agents' profile, and signing out.
	"GET /api/browser/logins":          fixed(&messages.ListLogins{}),
	"POST /api/browser/logins/signout": (*messages.OwnerBody).SignOut,
	// Installing the agents' browser, and its progress.
	"POST /api/browser/install": fixed(&messages.InstallBrowser{}),
	"GET /api/browser/install":  fixed(&messages.GetInstall{}),
	// Use my apps' permissions: the helper's probe, and asking the system.
	"GET /api/computer/permissions":  fixed(&messages.GetPermissions{}),
	"POST /api/computer/permissions": fixed(&messages.RequestPermissions{}),
	// Your browser: the paired extension, and forgetting it.
	"GET /api/extension":         fixed(&messages.GetExtension{}),
	"POST /api/extension/forget": fixed(&messages.ForgetExtension{}),
}

// fixed is a route whose message does not depend on the body. The message
// carries no fields, so one value serves every request.
func fixed[M any](m *M) func(*messages.OwnerBody) (any, *messages.Error) {
	return func(*messages.OwnerBody) (any, *messages.Error) { return m, nil }
}

// ownerMessage maps a method and path to the controller message.
func ownerMessage(method, path string, b *messages.OwnerBody) (any, *messages.Error) {
	if method == fasthttp.MethodDelete && strings.HasPrefix(path, "/api/agents/") {
		return &messages.RemoveAgent{Name: strings.TrimPrefix(path, "/api/agents/")}, nil
	}
	key := method + " " + path
	if route, ok := ownerRoutes[key]; ok {
		return route(b)
	}
	return nil, &messages.Error{Code: messages.CodeNotFound, Message: "There is no owner route " + messages.Clip(key, 80) + "."}
}

// tell sends one owner message to the actors and waits for the answer.
func (s *Server) tell(msg any) *messages.OwnerReply {
	c, cancel := deadline(ownerDeadline)
	defer cancel()
	return s.cfg.Actors.Owner(c, msg)
}
