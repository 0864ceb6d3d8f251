package session

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// recordRefusal writes a refusal the session decided into the ledger's
// refusal record: each record's text is capped (ledger.Refusal.Bounded),
// an agent's records are
// rate-limited (limits.RefusalEvery, a burst of limits.RefusalBurst; past
// it the refusal is still answered, and counted in the log, but not
// recorded), and the ledger keeps only the newest ledger.MaxRefusals.
func (a *Actor) recordRefusal(ctx actor.Context, in *messages.ActInput, url string, e *messages.Error) {
	if l := a.cfg.Limits; l != nil && !l.Refusal(a.cfg.AgentID) {
		a.unrecorded++
		if a.unrecorded == 1 || a.unrecorded%100 == 0 {
			a.cfg.Log.Warn("refusals are coming too fast to record each", "conversation", a.cfg.Conversation,
				"agent", a.cfg.Agent, "unrecorded", a.unrecorded)
		}
		return
	}
	at := a.cfg.Now().UTC()
	rec := ledger.Refusal{Conversation: a.cfg.Conversation, Agent: a.cfg.Agent,
		Action: in.Action, URL: url, Code: string(e.Code), At: at}.Bounded()
	id := fmt.Sprintf("%s/%d/%s", at.Format("20060102T150405.000000000"), a.rec.Epoch, a.cfg.Conversation)
	ctx.Send(a.cfg.Ledger, &ledger.Write{Ops: []ledger.Op{ledger.Put(ledger.RefusalKey(id), rec)}})
}
