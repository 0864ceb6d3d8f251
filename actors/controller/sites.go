package controller

import (
	"fmt"
	"net/url"
	"sort"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/messages"
)

// project is the one project this install has; site approvals are per project.
const project = "default"

// sites holds the owner's answers about sites. Always is durable (ledger,
// per project), Once is durable per conversation, Reject lasts for the life
// of the process, and pending requests wait in memory for the owner.
type sites struct {
	always   []egress.Approval
	once     map[string][]egress.Approval // by conversation
	rejected map[string]bool              // conversation|site
	pending  map[string]*messages.SiteRequest
}

func (a *Actor) loadSites() error {
	a.sites = sites{once: map[string][]egress.Approval{}, rejected: map[string]bool{},
		pending: map[string]*messages.SiteRequest{}}
	always, err := ledger.List[egress.Approval](a.cfg.Store, ledger.SitePrefix(project))
	if err != nil {
		return err
	}
	a.sites.always = always
	once, err := a.cfg.Store.SiteOnce()
	for conv, list := range once {
		a.sites.once[conv] = list
	}
	return err
}

// gateSites checks the navigations of an act against the owner's site
// answers. It returns an error to send the agent, or nil to go ahead; when it
// lets a page link through it marks the call so the session does too.
func (a *Actor) gateSites(m *messages.ToolCall) *messages.ToolResult {
	if m.Act == nil {
		return nil
	}
	steps := []*messages.ActInput{m.Act}
	if m.Act.Action == "script" {
		steps = m.Act.Steps
	}
	for _, s := range steps {
		if s.Action != "navigate" {
			continue
		}
		u, err := url.Parse(s.URL)
		if err != nil || egress.SiteOf(u).IsZero() {
			continue // the URL rules refuse it with their own reason
		}
		if r := a.gateOne(m.Conversation, m.Agent, u, s.URLSource == "page_link"); r != nil {
			return r
		}
	}
	m.SitesApproved = true
	return nil
}

func (a *Actor) gateOne(conv, agent string, u *url.URL, pageLink bool) *messages.ToolResult {
	site := egress.SiteOf(u)
	if !pageLink && !a.cfg.AskSites {
		return nil
	}
	if a.sites.rejected[conv+"|"+site.String()] {
		return messages.Fail("not_approved", fmt.Sprintf("The owner said no to %s this time; do not ask again in this conversation.", site))
	}
	approvals := append(append([]egress.Approval(nil), a.sites.always...), a.sites.once[conv]...)
	switch egress.CoverageOf(approvals, u) {
	case egress.Covered:
		return nil
	case egress.AskAgain:
		if pageLink {
			return messages.Fail("unapproved_site", fmt.Sprintf("This link came from page content and carries a query string the owner did not approve on %s; navigate somewhere you chose yourself.", site))
		}
	default:
		if pageLink {
			return messages.Fail("unapproved_site", fmt.Sprintf("This link came from page content and the owner has not approved %s; ask the owner to approve the site, or navigate somewhere you chose yourself.", site))
		}
	}
	if a.pendingFor(conv) >= maxPendingSites {
		return messages.Fail("too_many_requests", fmt.Sprintf("%d sites already wait for the owner in this conversation; wait for answers before asking about more.", maxPendingSites))
	}
	req := &messages.SiteRequest{Conversation: conv, Agent: agent, Site: site.String(), URL: u.String(), At: a.cfg.Now()}
	a.sites.pending[conv+"|"+site.String()] = req
	return messages.Fail("approval_required", fmt.Sprintf("buddi asked the owner whether you may open %s; wait for the answer, then navigate again.", site))
}

// maxPendingSites bounds the open site requests of one conversation.
const maxPendingSites = 8

func (a *Actor) pendingFor(conv string) int {
	n := 0
	for _, r := range a.sites.pending {
		if r.Conversation == conv {
			n++
		}
	}
	return n
}

// decideSite records the owner's answer to a site request.
func (a *Actor) decideSite(ctx actor.Context, m *messages.DecideSite) {
	key := m.Conversation + "|" + m.Site
	req := a.sites.pending[key]
	if req == nil {
		ctx.Respond(fail("no_pending_approval", fmt.Sprintf("Conversation %s has no request for %s waiting; `buddi approvals` lists them.", m.Conversation, m.Site)))
		return
	}
	u, _ := url.Parse(req.URL)
	ap := egress.ApprovalOf(u)
	delete(a.sites.pending, key)
	var op messages.LedgerOp
	switch m.Decision {
	case "reject":
		a.sites.rejected[key] = true
		ctx.Respond(&messages.OwnerReply{Result: map[string]any{"site": m.Site, "decision": "reject"}})
		return
	case "always":
		a.sites.always = append(a.sites.always, ap)
		op = ledger.Put(ledger.SiteKey(project, m.Site), ap)
	default:
		a.sites.once[m.Conversation] = append(a.sites.once[m.Conversation], ap)
		op = ledger.Put(ledger.ApprovalKey(m.Conversation, "site:"+m.Site), ledger.SiteOnce{Conversation: m.Conversation, Approval: ap, At: time.Now()})
	}
	a.writeThenReply(ctx, op, map[string]any{"site": m.Site, "decision": m.Decision})
}

func (a *Actor) writeThenReply(ctx actor.Context, op messages.LedgerOp, result any) {
	sender := ctx.Sender()
	f := ctx.RequestFuture(a.ledger, &messages.LedgerWrite{Ops: []messages.LedgerOp{op}}, ledgerTimeout)
	a.after(ctx, f, sender, func(res any, err error) {
		if err = ledger.Written(res, err); err != nil {
			reply(ctx, sender, fail("store_failed", "The answer could not be saved: "+err.Error()))
			return
		}
		reply(ctx, sender, &messages.OwnerReply{Result: result})
	})
}

func (a *Actor) siteRequests() []*messages.SiteRequest {
	out := make([]*messages.SiteRequest, 0, len(a.sites.pending))
	for _, r := range a.sites.pending {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out
}
