package daemon

import (
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// refusedByBrowser records an air-gap refusal the browser made itself: a
// redirect hop, a link a click followed, a history step, a popup, a frame.
// The session records the refusals it decides before dispatch; between the
// two, every air-gap refusal is in the record.
func (d *Daemon) refusedByBrowser(conv, url string, err error) {
	if messages.CodeOf(err) != messages.CodeAirGap {
		return
	}
	agent := ""
	for _, s := range d.routes.Sessions() {
		if s.Conversation == conv {
			agent = s.Agent
		}
	}
	ledger.RecordRefusal(d.sys.Root, d.ledger, ledger.Refusal{Conversation: conv, Agent: agent,
		Action: "browser", URL: url, Code: string(messages.CodeAirGap)})
}
