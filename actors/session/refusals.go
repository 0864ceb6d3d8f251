package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// recordRefusal writes an air-gap refusal into the ledger's refusal record.
func (a *Actor) recordRefusal(ctx actor.Context, in *messages.ActInput, url string, e *messages.Error) {
	ledger.RecordRefusal(ctx, a.cfg.Ledger, ledger.Refusal{Conversation: a.cfg.Conversation, Agent: a.cfg.Agent,
		Action: in.Action, URL: url, Code: string(e.Code), At: a.cfg.Now()})
}
