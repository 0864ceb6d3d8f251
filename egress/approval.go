package egress

import "net/url"

// Approval is what the ledger records when the owner approves a page: the
// scheme, the site, and the query string the owner saw, if there was one.
type Approval struct {
	Scheme string `json:"scheme"`          // "http" or "https"
	Site   Site   `json:"site"`            // see SiteOf
	Query  string `json:"query,omitempty"` // raw query of the approved URL
}

// ApprovalOf is the approval to record when the owner approves u.
func ApprovalOf(u *url.URL) Approval {
	if u == nil {
		return Approval{}
	}
	return Approval{Scheme: u.Scheme, Site: SiteOf(u), Query: u.RawQuery}
}

// Coverage is what an approval says about a navigation.
type Coverage uint8

// Coverage values, from weakest to strongest.
const (
	NotCovered Coverage = iota // another site, or a downgrade to http
	AskAgain                   // the site is approved, but this query string is not the one the owner saw (or the owner saw none)
	Covered                    // go ahead
)

func (c Coverage) String() string {
	switch c {
	case Covered:
		return "covered"
	case AskAgain:
		return "ask_again"
	}
	return "not_covered"
}

// Covers says whether a covers a navigation to u. An http approval covers
// https on the same site; an https approval never covers http. Origin-scoped
// sites (IPs, localhost, explicit ports) match only their exact origin. A
// query string is data leaving in the URL: an approval covers only the
// query the owner saw, so a URL with another query, or with one where the
// approved URL had none, asks again.
func (a Approval) Covers(u *url.URL) Coverage {
	s := SiteOf(u)
	if s.IsZero() || s != a.Site {
		return NotCovered
	}
	switch {
	case a.Scheme == u.Scheme:
	case a.Scheme == "http" && u.Scheme == "https":
	default:
		return NotCovered
	}
	if u.RawQuery != a.Query {
		return AskAgain
	}
	return Covered
}

// CoverageOf is the strongest coverage any of approvals gives u.
func CoverageOf(approvals []Approval, u *url.URL) Coverage {
	best := NotCovered
	for _, a := range approvals {
		if c := a.Covers(u); c > best {
			best = c
		}
	}
	return best
}
