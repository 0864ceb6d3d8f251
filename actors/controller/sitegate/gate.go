// Package sitegate holds the owner's answers about sites and checks an
// agent's navigations against them: Always lasts (the controller stores it
// per project), Once lasts for one conversation (stored too), Reject lasts
// for the life of the process, and requests wait in memory for the owner.
// It holds no lock; the controller actor is its only user.
package sitegate

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/messages"
)

// MaxPending bounds the open site requests of one conversation.
const MaxPending = 8

// Gate is the owner's site answers and the requests waiting for one.
type Gate struct {
	ask      bool // the owner asked to be asked about agent-chosen sites too
	always   []egress.Approval
	once     map[string][]egress.Approval // by conversation
	rejected map[string]bool              // conversation|site
	pending  map[string]*messages.SiteRequest
	now      func() time.Time
}

// New returns a gate over the stored answers. ask turns on asking about
// every site the agent chose (BUDDI_SITE_APPROVAL=ask).
func New(ask bool, always []egress.Approval, once map[string][]egress.Approval, now func() time.Time) *Gate {
	if once == nil {
		once = map[string][]egress.Approval{}
	}
	return &Gate{ask: ask, always: always, once: once, rejected: map[string]bool{},
		pending: map[string]*messages.SiteRequest{}, now: now}
}

// Check checks the navigations of an act. It returns the refusal to send the
// agent, or nil to go ahead; asked is the request it filed for the owner,
// if it filed one.
func (g *Gate) Check(conv, agent string, in *messages.ActInput) (refusal *messages.Error, asked *messages.SiteRequest) {
	if in == nil {
		return nil, nil
	}
	for _, s := range in.Navigates() {
		u, err := url.Parse(s.URL)
		if err != nil || egress.SiteOf(u).IsZero() {
			continue // the URL rules refuse it with their own reason
		}
		if e, req := g.one(conv, agent, u, s.URLSource == messages.URLFromPage); e != nil {
			return e, req
		}
	}
	return nil, nil
}

func (g *Gate) one(conv, agent string, u *url.URL, pageLink bool) (*messages.Error, *messages.SiteRequest) {
	site := egress.SiteOf(u)
	if !pageLink && !g.ask {
		return nil, nil
	}
	if g.rejected[key(conv, site.String())] {
		return messages.Errorf(messages.CodeNotApproved, "The owner said no to %s this time; do not ask again in this conversation.", site), nil
	}
	approvals := append(append([]egress.Approval(nil), g.always...), g.once[conv]...)
	switch egress.CoverageOf(approvals, u) {
	case egress.Covered:
		return nil, nil
	case egress.AskAgain:
		if pageLink {
			return messages.Errorf(messages.CodeUnapproved, "This link came from page content and carries a query string the owner did not approve on %s; navigate somewhere you chose yourself.", site), nil
		}
	default:
		if pageLink {
			return messages.Errorf(messages.CodeUnapproved, "This link came from page content and the owner has not approved %s; ask the owner to approve the site, or navigate somewhere you chose yourself.", site), nil
		}
	}
	if g.pendingFor(conv) >= MaxPending {
		return messages.Errorf(messages.CodeTooManyRequests, "%d sites already wait for the owner in this conversation; wait for answers before asking about more.", MaxPending), nil
	}
	req := &messages.SiteRequest{Conversation: conv, Agent: agent, Site: site.String(), URL: u.String(), At: g.now()}
	g.pending[key(conv, site.String())] = req
	return messages.Errorf(messages.CodeApprovalRequired, "buddi asked the owner whether you may open %s; wait for the answer, then navigate again.", site), req
}

func (g *Gate) pendingFor(conv string) int {
	n := 0
	for _, r := range g.pending {
		if r.Conversation == conv {
			n++
		}
	}
	return n
}

// Answer is an owner's decision the gate took: what the controller stores.
type Answer struct {
	Request  messages.SiteRequest // the request it answers
	Approval egress.Approval
	Always   bool // store for the project
	Once     bool // store for the conversation
}

// Decide takes the owner's answer to a waiting request.
func (g *Gate) Decide(m *messages.DecideSite) (Answer, *messages.Error) {
	k := key(m.Conversation, m.Site)
	req := g.pending[k]
	if req == nil {
		return Answer{}, messages.Errorf(messages.CodeNoPendingApproval,
			"Conversation %s has no request for %s waiting; `buddi approvals` lists them.", m.Conversation, m.Site)
	}
	u, _ := url.Parse(req.URL)
	ap := egress.ApprovalOf(u)
	delete(g.pending, k)
	switch m.Decision {
	case messages.DecideReject:
		g.rejected[k] = true
		return Answer{Request: *req, Approval: ap}, nil
	case messages.DecideAlways:
		g.always = append(g.always, ap)
		return Answer{Request: *req, Approval: ap, Always: true}, nil
	}
	g.once[m.Conversation] = append(g.once[m.Conversation], ap)
	return Answer{Request: *req, Approval: ap, Once: true}, nil
}

// Pending lists the waiting requests, oldest first.
func (g *Gate) Pending() messages.SiteRequests {
	out := make(messages.SiteRequests, 0, len(g.pending))
	for _, r := range g.pending {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out
}

// Forget drops the waiting requests of a conversation whose session ended.
func (g *Gate) Forget(conv string) {
	for k := range g.pending {
		if strings.HasPrefix(k, conv+"|") {
			delete(g.pending, k)
		}
	}
}

func key(conv, site string) string { return fmt.Sprintf("%s|%s", conv, site) }
