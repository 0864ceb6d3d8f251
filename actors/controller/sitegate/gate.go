// Package sitegate holds the owner's answers about sites and checks an
// agent's navigations against them, after the URL rules: Always lasts (the
// controller stores it per project), Once lasts for one conversation
// (stored too), Reject lasts for the life of the process and holds for
// every conversation, and requests wait in memory for the owner. It holds
// no lock; the controller actor is its only user.
package sitegate

import (
	"net/url"
	"strings"
	"time"

	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/messages"
)

// MaxPending bounds the open site requests of one conversation.
const MaxPending = 8

// Rules are the install's URL rules, which refuse first: only a URL they
// would let the browser open is subject to site approval, and a preview
// origin never is.
type Rules interface {
	// CheckURL refuses a URL the browser may not open at all (scheme,
	// buddi's own address, never-automate, air-gap, private addresses,
	// ports, the host list); source is where the URL came from.
	CheckURL(raw, source string) error
	// Preview reports whether the URL is one of the owner's preview origins.
	Preview(raw string) bool
}

// Gate is the owner's site answers and the requests waiting for one.
type Gate struct {
	ask      bool // the owner asked to be asked about agent-chosen sites too
	rules    Rules
	always   []egress.Approval
	once     map[string][]egress.Approval // by conversation
	rejected map[string]bool              // by site, install-wide
	pending  map[string]*messages.SiteRequest
	now      func() time.Time
}

// New returns a gate over the stored answers, behind rules. ask turns on
// asking about every site the agent chose (BUDDI_SITE_APPROVAL=ask).
func New(ask bool, rules Rules, always []egress.Approval, once map[string][]egress.Approval, now func() time.Time) *Gate {
	if once == nil {
		once = map[string][]egress.Approval{}
	}
	return &Gate{ask: ask, rules: rules, always: always, once: once, rejected: map[string]bool{},
		pending: map[string]*messages.SiteRequest{}, now: now}
}

// Verdict is what the gate says about an act's navigations.
type Verdict struct {
	Refusal *messages.Error       // nil: go ahead
	Asked   *messages.SiteRequest // the request filed for the owner, if one was
	URL     string                // the URL refused
}

// Check checks the navigations of an act (a script's too): the URL rules
// first, for every one of them, then, for those the rules let through that
// are not preview origins, the owner's answers. Nothing is put to the owner
// about an act the rules refuse.
func (g *Gate) Check(conv, agent string, in *messages.ActInput) Verdict {
	if in == nil {
		return Verdict{}
	}
	var gated []*messages.ActInput
	for _, s := range in.Navigates() {
		if g.rules == nil {
			gated = append(gated, s)
			continue
		}
		if err := g.rules.CheckURL(s.URL, messages.URLFromAgent); err != nil {
			e := *messages.ErrorOf(err, messages.CodeNotAllowed)
			return Verdict{Refusal: &e, URL: s.URL}
		}
		if !g.rules.Preview(s.URL) {
			gated = append(gated, s)
		}
	}
	for _, s := range gated {
		u, err := url.Parse(s.URL)
		if err != nil || egress.SiteOf(u).IsZero() {
			continue // the URL rules refuse it at dispatch with their own reason
		}
		if e, req := g.one(conv, agent, u, s.URLSource == messages.URLFromPage); e != nil {
			return Verdict{Refusal: e, Asked: req, URL: s.URL}
		}
	}
	return Verdict{}
}

func (g *Gate) one(conv, agent string, u *url.URL, pageLink bool) (*messages.Error, *messages.SiteRequest) {
	site := egress.SiteOf(u)
	if !pageLink && !g.ask {
		return nil, nil
	}
	if g.rejected[site.String()] {
		return messages.Errorf(messages.CodeNotApproved, "The owner said no to %s; do not ask again until the owner changes that (`buddi sites`).", site), nil
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
	return messages.Errorf(messages.CodeApprovalRequired, "buddi asked the owner whether you may open %s; wait for the answer, then navigate again.", u.Redacted()), req
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
		g.rejected[m.Site] = true
		g.dropPending(m.Site)
		return Answer{Request: *req, Approval: ap}, nil
	case messages.DecideAlways:
		g.always = append(g.always, ap)
		return Answer{Request: *req, Approval: ap, Always: true}, nil
	}
	g.once[m.Conversation] = append(g.once[m.Conversation], ap)
	return Answer{Request: *req, Approval: ap, Once: true}, nil
}

// dropPending forgets every conversation's request about site: a rejection
// answers them all.
func (g *Gate) dropPending(site string) {
	for k, r := range g.pending {
		if r.Site == site {
			delete(g.pending, k)
		}
	}
}

// Pending lists the waiting requests, oldest first.
func (g *Gate) Pending() messages.SiteRequests { return messages.Waiting(g.pending) }

// Forget drops the waiting requests and the once answers of a
// conversation whose task ended: a once answer holds for that task only.
// It returns the sites of the once answers, for the caller to delete.
func (g *Gate) Forget(conv string) (once []string) {
	for k := range g.pending {
		if strings.HasPrefix(k, conv+"|") {
			delete(g.pending, k)
		}
	}
	for _, ap := range g.once[conv] {
		once = append(once, ap.Site.String())
	}
	delete(g.once, conv)
	return once
}

func key(conv, site string) string { return conv + "|" + site }

// Move hands a conversation's once answers to its new id (the
// conversation moved; its task goes on) and returns them, for the caller
// to store under it. Its waiting requests are dropped: their answers would
// name the old id.
func (g *Gate) Move(from, to string) []egress.Approval {
	once := g.once[from]
	g.Forget(from)
	if len(once) > 0 {
		g.once[to] = once
	}
	return once
}
