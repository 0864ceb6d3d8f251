package sitegate

import (
	"sort"
	"strings"

	"github.com/buddi-dev/buddi/messages"
)

// The owner's view of the gate: the Privacy & Safety lists.

// SetAsk turns asking about sites the agent chose on or off.
func (g *Gate) SetAsk(on bool) { g.ask = on }

// Approved lists the sites approved for good, by site.
func (g *Gate) Approved() messages.SiteList {
	out := make(messages.SiteList, 0, len(g.always))
	for _, a := range g.always {
		out = append(out, messages.ApprovedSite{Site: a.Site.String(), Scheme: a.Scheme, Query: a.Query})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Site < out[j].Site })
	return out
}

// Revoke withdraws every lasting approval of site; false when there was none.
func (g *Gate) Revoke(site string) bool {
	kept := g.always[:0]
	for _, a := range g.always {
		if a.Site.String() != site {
			kept = append(kept, a)
		}
	}
	found := len(kept) < len(g.always)
	clear(g.always[len(kept):])
	g.always = kept
	return found
}

// Declined lists the sites the owner said no to, by conversation and site.
func (g *Gate) Declined() messages.DeclinedList {
	out := make(messages.DeclinedList, 0, len(g.rejected))
	for k := range g.rejected {
		conv, site, _ := strings.Cut(k, "|")
		out = append(out, messages.DeclinedSite{Conversation: conv, Site: site})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Conversation != out[j].Conversation {
			return out[i].Conversation < out[j].Conversation
		}
		return out[i].Site < out[j].Site
	})
	return out
}

// AskAgain forgets a no, so the next navigation to site in conv asks the
// owner again; false when there was none.
func (g *Gate) AskAgain(conv, site string) bool {
	k := key(conv, site)
	found := g.rejected[k]
	delete(g.rejected, k)
	return found
}
