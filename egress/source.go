package egress

// Source says where a URL came from. It matters only for URLs the agent read
// out of a page, which are refused for sites the owner has not approved.
type Source string

// Sources the browser driver reports. An unknown source is treated as the
// strictest one, SourcePageLink.
const (
	SourceAgent    Source = "agent"     // the agent wrote the URL itself
	SourcePageLink Source = "page_link" // the agent read the URL out of page content
	SourceRedirect Source = "redirect"  // a server or script redirect
	SourcePopup    Source = "popup"     // a window the page opened
	// SourceOwner is the owner browsing (a page taken over and driven by
	// the owner's hand): what the owner sends is the owner's, so URLs are
	// not scanned for secrets.
	SourceOwner Source = "owner"
)

func (s Source) pageLink() bool {
	switch s {
	case SourceAgent, SourceRedirect, SourcePopup, SourceOwner:
		return false
	}
	return true
}
