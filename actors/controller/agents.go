package controller

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/controller/registry"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/actors/routes"
	"github.com/buddi-dev/buddi/messages"
)

// addAgent registers an agent with the browser.* grant once the ledger has
// it, and answers its token, which is never stored in plain form.
func (a *Actor) addAgent(ctx actor.Context, m *messages.AddAgent) {
	ag, token, e := a.agents.New(m, a.cfg.Now())
	if e != nil {
		ctx.Respond(fail(e))
		return
	}
	sender := ctx.Sender()
	w := &ledger.Write{Owner: true, Ops: []ledger.Op{ledger.Put(ledger.AgentKey(m.Name), ag)}}
	a.write(ctx, w, sender, func(err error) {
		if err != nil {
			reply(ctx, sender, storeFailed("The agent", err))
			return
		}
		a.agents.Put(ag)
		a.cfg.Routes.PutAgent(ag.TokenHash, routes.Agent{Name: ag.Name, Grants: ag.Grants})
		reply(ctx, sender, &messages.OwnerReply{Result: registry.Added(ag, token)})
	})
}

// removeAgent revokes the agent's token at once, then makes it durable.
func (a *Actor) removeAgent(ctx actor.Context, m *messages.RemoveAgent) {
	ag, e := a.agents.Remove(m.Name)
	if e != nil {
		ctx.Respond(fail(e))
		return
	}
	a.cfg.Routes.RemoveAgent(ag.TokenHash)
	sender := ctx.Sender()
	w := &ledger.Write{Owner: true, Ops: []ledger.Op{ledger.Delete(ledger.AgentKey(m.Name))}}
	a.write(ctx, w, sender, func(err error) {
		if err != nil {
			reply(ctx, sender, storeFailed("The removal", err))
			return
		}
		reply(ctx, sender, &messages.OwnerReply{Result: &messages.AgentRemoved{Removed: m.Name}})
	})
}
