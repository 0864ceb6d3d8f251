package drivers

import "github.com/buddi-dev/buddi/messages"

// Bounds on what a driver reports of a page: a page chooses its title and
// URL (pushState makes URLs of any length), so neither may grow an answer
// without limit.
const (
	MaxTitle = 300  // bytes of a page title
	MaxURL   = 4096 // bytes of a page URL
	// MaxTabs is how many tabs one conversation holds at once: a page
	// opening windows in a loop, or an agent opening tabs, is refused past it.
	MaxTabs = 16
)

// Bound caps the outcome's page URL and titles, its tabs' included.
func (o *Outcome) Bound() {
	o.URL, o.Title = messages.Clip(o.URL, MaxURL), messages.Clip(o.Title, MaxTitle)
	boundTabs(o.Tabs)
}

// Bound caps the observation's page URL and titles, its tabs' included.
func (o *Observation) Bound() {
	o.URL, o.Title = messages.Clip(o.URL, MaxURL), messages.Clip(o.Title, MaxTitle)
	boundTabs(o.Tabs)
}

func boundTabs(tabs []TabInfo) {
	for i := range tabs {
		tabs[i].URL, tabs[i].Title = messages.Clip(tabs[i].URL, MaxURL), messages.Clip(tabs[i].Title, MaxTitle)
	}
}
