package sitegate

import (
	"slices"
	"strings"

	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/messages"
)

// List is every answer the owner gave about sites, by site: the approvals
// kept for the project and for conversations, and the rejections.
func (g *Gate) List() messages.SiteGrants {
	out := messages.SiteGrants{}
	for _, a := range g.always {
		out = append(out, grant(a, messages.ScopeAlways, ""))
	}
	for conv, list := range g.once {
		for _, a := range list {
			out = append(out, grant(a, messages.ScopeOnce, conv))
		}
	}
	for site := range g.rejected {
		out = append(out, messages.SiteGrant{Site: site, Scope: messages.ScopeRejected})
	}
	slices.SortFunc(out, func(a, b messages.SiteGrant) int {
		return strings.Compare(a.Site+"|"+a.Scope+"|"+a.Conversation+"|"+a.Query, b.Site+"|"+b.Scope+"|"+b.Conversation+"|"+b.Query)
	})
	return out
}

func grant(a egress.Approval, scope, conv string) messages.SiteGrant {
	return messages.SiteGrant{Site: a.Site.String(), Scheme: a.Scheme, Query: a.Query, Scope: scope, Conversation: conv}
}

// Revoked is what a revocation removed: the count of answers, and the
// conversations whose once-approvals of the site the store must drop too.
type Revoked struct {
	Removed       int
	Always        bool     // the project's approval of the site was among them
	Conversations []string // conversations that had it approved once
}

// Revoke forgets every answer about site: its approvals and its rejection.
// The next navigation there is asked about (or refused as a page link)
// again.
func (g *Gate) Revoke(site string) Revoked {
	var r Revoked
	keep := g.always[:0:0]
	for _, a := range g.always {
		if a.Site.String() == site {
			r.Removed++
			r.Always = true
			continue
		}
		keep = append(keep, a)
	}
	g.always = keep
	for conv, list := range g.once {
		kept := list[:0:0]
		for _, a := range list {
			if a.Site.String() == site {
				r.Removed++
				continue
			}
			kept = append(kept, a)
		}
		if len(kept) != len(list) {
			r.Conversations = append(r.Conversations, conv)
		}
		g.once[conv] = kept
	}
	if g.rejected[site] {
		delete(g.rejected, site)
		r.Removed++
	}
	slices.Sort(r.Conversations)
	return r
}

// Always lists the answers "always", for every agent.
func (g *Gate) Always() []egress.Approval { return slices.Clone(g.always) }

// SetAlways makes list the answers "always": a cluster's, as etcd holds
// them. Requests waiting for a site it covers stay until the agent's next
// try, which passes.
func (g *Gate) SetAlways(list []egress.Approval) { g.always = slices.Clone(list) }
