package session

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// recordRefusal writes an air-gap refusal into the ledger's refusal record.
func (a *Actor) recordRefusal(ctx actor.Context, in *messages.ActInput, e *messages.Error) {
	at := a.cfg.Now().UTC()
	rec := ledger.Refusal{Conversation: a.cfg.Conversation, Agent: a.cfg.Agent,
		Action: in.Action, URL: a.url, Code: string(e.Code), At: at}
	if in.Action == "navigate" {
		rec.URL = in.URL
	}
	id := fmt.Sprintf("%s/%d/%s", at.Format("20060102T150405.000000000"), a.rec.Epoch, a.cfg.Conversation)
	ctx.Send(a.cfg.Ledger, &ledger.Write{Ops: []ledger.Op{ledger.Put(ledger.RefusalKey(id), rec)}})
}
