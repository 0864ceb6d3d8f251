// Package appgate holds the owner's answers about apps in Use my apps and
// checks an agent's open against them: an app on the owner's list opens;
// any other raises one request (a card naming the agent and the app's id)
// and the agent waits. Once lets the app open in that conversation, Always
// adds it to the list (the caller writes settings.json; a full list makes
// it count as Once), and Reject refuses the app in that conversation with
// no second card. Once and Reject last until the conversation's task ends;
// the controller keeps them in the ledger. It holds no lock; the
// controller actor is its only user.
package appgate

import (
	"strings"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// Prefix marks an app in a request's Site, so one approvals path (owner
// API, dashboard, CLI, Telegram) answers sites and apps alike.
const Prefix = "app:"

// MaxPending bounds the open app requests of one conversation.
const MaxPending = 8

// Subject is the request's Site for app id.
func Subject(id string) string { return Prefix + id }

// IsApp reports whether a request's Site names an app.
func IsApp(site string) bool { return strings.HasPrefix(site, Prefix) }

// Gate is the owner's app answers and the requests waiting for one.
type Gate struct {
	once     map[string]map[string]bool   // by conversation, by app
	rejected map[string]map[string]string // by conversation, by app: its name, or "" when unknown
	pending  map[string]*messages.SiteRequest
	now      func() time.Time
}

// New returns an empty gate.
func New(now func() time.Time) *Gate {
	return &Gate{once: map[string]map[string]bool{}, rejected: map[string]map[string]string{},
		pending: map[string]*messages.SiteRequest{}, now: now}
}

// Load puts back a stored answer (once or reject) about app id, named
// name ("" when the owner was asked by id alone).
func (g *Gate) Load(conv, id, name, decision string) {
	switch decision {
	case messages.DecideOnce:
		put(g.once, conv, id, true)
	case messages.DecideReject:
		put(g.rejected, conv, id, name)
	}
}

func put[V any](m map[string]map[string]V, conv, app string, v V) {
	if m[conv] == nil {
		m[conv] = map[string]V{}
	}
	m[conv][app] = v
}

// Check checks an act's open of an app by id (with the app's name as
// found on this machine when the agent named it by name); allowed says whether the app
// is on the owner's list. It returns the refusal, and the request it filed
// for the owner when it filed one.
func (g *Gate) Check(conv, agent string, in *messages.ActInput, allowed func(id string) bool) (*messages.Error, *messages.SiteRequest) {
	if in == nil || in.Action != "open" || in.AppID == "" {
		return nil, nil
	}
	id := in.AppID
	if allowed(id) || g.once[conv][id] {
		return nil, nil
	}
	if name, no := g.rejected[conv][id]; no {
		return messages.Errorf(messages.CodeNotApproved, "The owner said no to %s in this conversation; do the task without it.", nameOf(name, in.App, id)), nil
	}
	if g.pending[key(conv, id)] != nil {
		return messages.Errorf(messages.CodeApprovalRequired, "buddi already asked the owner about %s; wait for the answer, then open it again.", id), nil
	}
	if g.pendingFor(conv) >= MaxPending {
		return messages.Errorf(messages.CodeTooManyRequests, "%d apps already wait for the owner in this conversation; wait for answers before asking about more.", MaxPending), nil
	}
	req := &messages.SiteRequest{Conversation: conv, Agent: agent, Site: Subject(id), App: id, AppName: in.App, At: g.now()}
	g.pending[key(conv, id)] = req
	return messages.Errorf(messages.CodeApprovalRequired, "buddi asked the owner whether you may use %s on their computer; wait for the answer, then open it again.", id), req
}

// Once reports whether the owner allowed app id once for conv.
func (g *Gate) Once(conv, id string) bool { return g.once[conv][id] }

func (g *Gate) pendingFor(conv string) int {
	n := 0
	for _, r := range g.pending {
		if r.Conversation == conv {
			n++
		}
	}
	return n
}

// Decide takes the owner's answer to a waiting request. Always is taken as
// Once here: the caller adds the app to the list, or, when the list is
// full, keeps the Once.
func (g *Gate) Decide(m *messages.DecideSite) (messages.SiteRequest, *messages.Error) {
	id := strings.TrimPrefix(m.Site, Prefix)
	k := key(m.Conversation, id)
	req := g.pending[k]
	if req == nil {
		return messages.SiteRequest{}, messages.Errorf(messages.CodeNoPendingApproval,
			"Conversation %s has no request for the app %s waiting; `buddi approvals` lists them.", m.Conversation, id)
	}
	delete(g.pending, k)
	if m.Decision == messages.DecideReject {
		put(g.rejected, m.Conversation, id, req.AppName)
	} else {
		put(g.once, m.Conversation, id, true)
	}
	return *req, nil
}

// nameOf is how a refusal names an app: its name as installed when the
// owner's card or the agent's open gave it, else its id.
func nameOf(names ...string) string {
	for _, n := range names {
		if n != "" {
			return n
		}
	}
	return ""
}

// Pending lists the waiting requests, oldest first.
func (g *Gate) Pending() messages.SiteRequests { return messages.Waiting(g.pending) }

// EndTask drops the requests of a conversation whose task ended: nobody
// waits for their answers any more. The answers given stay.
func (g *Gate) EndTask(conv string) {
	for k, r := range g.pending {
		if r.Conversation == conv {
			delete(g.pending, k)
		}
	}
}

// Forget drops a conversation's requests and answers (the conversation is
// gone) and returns the apps it had answers about, for the caller to delete.
func (g *Gate) Forget(conv string) (apps []string) {
	g.EndTask(conv)
	for app := range g.once[conv] {
		apps = append(apps, app)
	}
	for app := range g.rejected[conv] {
		if !g.once[conv][app] {
			apps = append(apps, app)
		}
	}
	delete(g.once, conv)
	delete(g.rejected, conv)
	return apps
}

func key(conv, app string) string { return conv + "|" + app }

// Answer is one of the owner's answers about an app in a conversation.
type Answer struct {
	App, Name, Decision string
}

// Move hands a conversation's answers to its new id (the conversation
// moved) and returns them, for the caller to store under it. Its waiting
// requests are dropped: their answers would name the old id.
func (g *Gate) Move(from, to string) []Answer {
	var out []Answer
	for app := range g.once[from] {
		out = append(out, Answer{App: app, Decision: messages.DecideOnce})
	}
	for app, name := range g.rejected[from] {
		if g.once[from][app] {
			continue // one answer per app is stored: the once, as Forget counts it
		}
		out = append(out, Answer{App: app, Name: name, Decision: messages.DecideReject})
	}
	g.Forget(from)
	for _, ans := range out {
		g.Load(to, ans.App, ans.Name, ans.Decision)
	}
	return out
}
