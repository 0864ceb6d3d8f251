package apiclient

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// Owner is a Client acting as the owner, with the owner token.
type Owner struct {
	*Client
	token string
}

// Owner returns the owner's side of c.
func (c *Client) Owner(token string) *Owner { return &Owner{Client: c, token: token} }

// Token is the owner token the calls carry.
func (o *Owner) Token() string { return o.token }

// Health reads /healthz with the owner token: all of it (mode, Stop,
// sessions, restarts, uptime).
func (o *Owner) Health(ctx context.Context) (*messages.Health, error) { return o.health(ctx, o.token) }

// Metrics reads GET /metrics with the owner token: the page in
// Prometheus's text format, as it came.
func (o *Owner) Metrics(ctx context.Context) ([]byte, error) {
	var page []byte
	var status int
	err := o.tr.send(ctx, http.MethodGet, o.base, "/metrics", o.token, o.agent, nil, func(s int, answer []byte) {
		status, page = s, append([]byte(nil), answer...)
	})
	switch {
	case err != nil:
		return nil, o.transportError(ctx, err)
	case status == http.StatusUnauthorized:
		return nil, &messages.Error{Code: messages.CodeUnauthorized, Message: "The token was refused."}
	case status != http.StatusOK:
		return nil, o.badAnswer(status)
	}
	return page, nil
}

// Call sends one owner request with the owner body and decodes the result.
func (o *Owner) Call(ctx context.Context, method, path string, body *messages.OwnerBody, out any) error {
	var b any
	if body != nil {
		b = body
	}
	return o.Client.Call(ctx, method, path, o.token, b, out)
}

// Sessions lists the sessions.
func (o *Owner) Sessions(ctx context.Context) (messages.SessionList, error) {
	var out messages.SessionList
	return out, o.Call(ctx, http.MethodGet, "/api/browser/sessions", nil, &out)
}

// Control takes over, resumes or releases conv ("takeover", "resume",
// "release") and returns the session as it is then.
func (o *Owner) Control(ctx context.Context, control, conv string) (messages.SessionInfo, error) {
	var out messages.SessionInfo
	return out, o.Call(ctx, http.MethodPost, "/api/browser/"+control, &messages.OwnerBody{Conversation: conv}, &out)
}

// Move moves conv's session, with its task, to the new conversation id to.
func (o *Owner) Move(ctx context.Context, conv, to string) (messages.Moved, error) {
	var out messages.Moved
	return out, o.Call(ctx, http.MethodPost, "/api/browser/move", &messages.OwnerBody{Conversation: conv, To: to}, &out)
}

// Screenshots is conv's kept thumbnails.
func (o *Owner) Screenshots(ctx context.Context, conv string) (messages.Shots, error) {
	var out messages.Shots
	return out, o.Call(ctx, http.MethodPost, "/api/browser/screenshots", &messages.OwnerBody{Conversation: conv}, &out)
}

// Stop stops all browser access.
func (o *Owner) Stop(ctx context.Context) (messages.StopResult, error) {
	var out messages.StopResult
	return out, o.Call(ctx, http.MethodPost, "/api/browser/stop", nil, &out)
}

// ResumeAll lifts the Stop.
func (o *Owner) ResumeAll(ctx context.Context) error {
	return o.Call(ctx, http.MethodPost, "/api/browser/resume", &messages.OwnerBody{All: true}, nil)
}

// Tasks lists the tasks.
func (o *Owner) Tasks(ctx context.Context) (messages.TaskList, error) {
	var out messages.TaskList
	return out, o.Call(ctx, http.MethodGet, "/api/tasks", nil, &out)
}

// StartTask gives agent a task in conv.
func (o *Owner) StartTask(ctx context.Context, agent, conv, desc string, steps, minutes int) (messages.TaskView, error) {
	var out messages.TaskView
	return out, o.Call(ctx, http.MethodPost, "/api/tasks", &messages.OwnerBody{Agent: agent, Conversation: conv,
		Description: desc, Steps: steps, Minutes: minutes}, &out)
}

// DecideTask accepts or refuses conv's pending task.
func (o *Owner) DecideTask(ctx context.Context, conv string, accept bool) (messages.TaskView, error) {
	var out messages.TaskView
	return out, o.Call(ctx, http.MethodPost, "/api/tasks/decide", &messages.OwnerBody{Conversation: conv, Accept: accept}, &out)
}

// Agents lists the agents.
func (o *Owner) Agents(ctx context.Context) (messages.AgentList, error) {
	var out messages.AgentList
	return out, o.Call(ctx, http.MethodGet, "/api/agents", nil, &out)
}

// AddAgent adds an agent; the answer carries its token, shown this once.
func (o *Owner) AddAgent(ctx context.Context, name string, autoApprove bool) (messages.AgentAdded, error) {
	var out messages.AgentAdded
	return out, o.Call(ctx, http.MethodPost, "/api/agents", &messages.OwnerBody{Name: name, AutoApprove: autoApprove}, &out)
}

// RemoveAgent removes an agent; its token stops working.
func (o *Owner) RemoveAgent(ctx context.Context, name string) error {
	return o.Call(ctx, http.MethodDelete, "/api/agents/"+name, nil, nil)
}

// Approvals lists the sites waiting for the owner.
func (o *Owner) Approvals(ctx context.Context) (messages.SiteRequests, error) {
	var out messages.SiteRequests
	return out, o.Call(ctx, http.MethodGet, "/api/approvals", nil, &out)
}

// Approve answers a site request: once, always or reject.
func (o *Owner) Approve(ctx context.Context, conv, site, decision string) error {
	return o.Call(ctx, http.MethodPost, "/api/approvals", &messages.OwnerBody{Conversation: conv, Site: site, Decision: decision}, nil)
}

// Permissions is what Use my apps' helper finds it has; it never prompts.
func (o *Owner) Permissions(ctx context.Context) (messages.Permissions, error) {
	var out messages.Permissions
	return out, o.Call(ctx, http.MethodGet, "/api/computer/permissions", nil, &out)
}

// RequestPermissions asks the system, through the helper, for what Use my
// apps lacks; refused while any session is open.
func (o *Owner) RequestPermissions(ctx context.Context) (messages.Permissions, error) {
	var out messages.Permissions
	return out, o.Call(ctx, http.MethodPost, "/api/computer/permissions", nil, &out)
}

// SignInLink asks for a one-time link that signs a browser in to the dashboard.
func (o *Owner) SignInLink(ctx context.Context) (messages.SignInLink, error) {
	var out messages.SignInLink
	return out, o.Call(ctx, http.MethodPost, "/api/signin-links", nil, &out)
}

// Telegram is the pairing, the bound conversations and the bot's state.
func (o *Owner) Telegram(ctx context.Context) (messages.TelegramView, error) {
	var out messages.TelegramView
	return out, o.Call(ctx, http.MethodGet, "/api/telegram", nil, &out)
}

// PairTelegram makes a one-time pairing link for the owner's chat.
func (o *Owner) PairTelegram(ctx context.Context) (messages.TelegramLink, error) {
	var out messages.TelegramLink
	return out, o.Call(ctx, http.MethodPost, "/api/telegram/pair", nil, &out)
}

// UnpairTelegram forgets the paired chat and its bindings.
func (o *Owner) UnpairTelegram(ctx context.Context) error {
	return o.Call(ctx, http.MethodDelete, "/api/telegram/pair", nil, nil)
}

// BindTelegram binds conv to the paired chat, or unbinds it.
func (o *Owner) BindTelegram(ctx context.Context, conv string, bound bool) (messages.TelegramView, error) {
	var out messages.TelegramView
	path := "/api/telegram/unbind"
	if bound {
		path = "/api/telegram/bind"
	}
	return out, o.Call(ctx, http.MethodPost, path, &messages.OwnerBody{Conversation: conv}, &out)
}

// Sites lists the owner's answers about sites: approvals and rejections.
func (o *Owner) Sites(ctx context.Context) (messages.SiteGrants, error) {
	var out messages.SiteGrants
	return out, o.Call(ctx, http.MethodGet, "/api/browser/sites", nil, &out)
}

// RevokeSite forgets every answer about a site, durably.
func (o *Owner) RevokeSite(ctx context.Context, site string) (messages.SiteRevoked, error) {
	var out messages.SiteRevoked
	return out, o.Call(ctx, http.MethodPost, "/api/browser/sites/revoke", &messages.OwnerBody{Site: site}, &out)
}

// Logins lists the sites holding logins in the agents' browser profile.
func (o *Owner) Logins(ctx context.Context) (messages.Logins, error) {
	var out messages.Logins
	return out, o.Call(ctx, http.MethodGet, "/api/browser/logins", nil, &out)
}

// SignOut clears one site's logins from the agents' profile, or all of
// them when site is "".
func (o *Owner) SignOut(ctx context.Context, site string) (messages.SignedOut, error) {
	var out messages.SignedOut
	return out, o.Call(ctx, http.MethodPost, "/api/browser/logins/signout", &messages.OwnerBody{Site: site, All: site == ""}, &out)
}

// Extension says what buddi knows of the paired browser extension.
func (o *Owner) Extension(ctx context.Context) (messages.ExtensionView, error) {
	var out messages.ExtensionView
	return out, o.Call(ctx, http.MethodGet, "/api/extension", nil, &out)
}

// PairExtension pairs the extension showing code.
func (o *Owner) PairExtension(ctx context.Context, code string) (messages.ExtensionView, error) {
	var out messages.ExtensionView
	return out, o.Call(ctx, http.MethodPost, "/api/extension/pair", &messages.OwnerBody{Code: code}, &out)
}

// ForgetExtension deletes the extension's pairing and closes its socket.
func (o *Owner) ForgetExtension(ctx context.Context) (messages.ExtensionView, error) {
	var out messages.ExtensionView
	return out, o.Call(ctx, http.MethodPost, "/api/extension/forget", nil, &out)
}

// Audit reads the audit trail: the newest lines f picks, oldest first.
func (o *Owner) Audit(ctx context.Context, f messages.AuditFilter) (messages.AuditList, error) {
	q := url.Values{}
	set := func(k, v string) {
		if v != "" {
			q.Set(k, v)
		}
	}
	set("agent", f.Agent)
	set("conversation", f.Conversation)
	if !f.Since.IsZero() {
		set("since", f.Since.UTC().Format(time.RFC3339Nano))
	}
	if !f.Until.IsZero() {
		set("until", f.Until.UTC().Format(time.RFC3339Nano))
	}
	if f.Limit > 0 {
		set("limit", strconv.Itoa(f.Limit))
	}
	path := "/api/audit"
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	var out messages.AuditList
	return out, o.Call(ctx, http.MethodGet, path, nil, &out)
}
