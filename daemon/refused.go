package daemon

import (
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// refusedByBrowser records an air-gap refusal, or one of a URL carrying a
// secret, that the browser made itself: a
// redirect hop, a link a click followed, a history step, a popup, a frame.
// The session records the refusals it decides before dispatch; between the
// two, every such refusal is in the record.
func (d *Daemon) refusedByBrowser(conv, url string, err error) {
	code := messages.CodeOf(err)
	if !messages.RecordedRefusal(code) {
		return
	}
	s := d.routes.Session(conv)
	if s == nil {
		return // the session ended meanwhile: nobody to record it for
	}
	if !d.limits.Refusal(s.AgentID) { // a page refused in a loop records no faster than the agent's own refusals
		return
	}
	ledger.RecordRefusal(d.sys.Root, d.ledger, ledger.Refusal{Conversation: conv, Agent: s.Agent,
		Action: "browser", URL: url, Code: string(code)})
}
