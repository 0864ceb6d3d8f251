package messages

import "time"

// SiteRequest is an agent's navigation waiting for the owner's approval.
type SiteRequest struct {
	Conversation string    `json:"conversation"`
	Agent        string    `json:"agent"`
	Site         string    `json:"site"`
	URL          string    `json:"url"`
	At           time.Time `json:"at"`
}

// ListSiteRequests asks for the pending site requests.
type ListSiteRequests struct{}

// DecideSite answers one: Decision is "once", "always" or "reject".
type DecideSite struct {
	Conversation string
	Site         string
	Decision     string
}
