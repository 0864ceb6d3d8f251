package controller

import (
	"context"
	"encoding/json"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/controller/appgate"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// decideSite records the owner's answer to a site request: always and once
// are answered once the ledger has them, reject at once (it lasts for the
// life of the process).
func (a *Actor) decideSite(ctx actor.Context, m *messages.DecideSite) {
	if appgate.IsApp(m.Site) {
		a.decideApp(ctx, m)
		return
	}
	ans, e := a.sites.Decide(m)
	if e != nil {
		ctx.Respond(fail(e))
		return
	}
	result := &messages.SiteDecision{Site: m.Site, Decision: m.Decision}
	a.cfg.Bus.Publish(&messages.ApprovalRequested{Request: ans.Request, Decision: m.Decision})
	var op ledger.Op
	switch {
	case ans.Always:
		op = ledger.Put(ledger.SiteKey(project, m.Site), ans.Approval)
	case ans.Once:
		raw, err := json.Marshal(ans.Approval)
		if err != nil {
			ctx.Respond(storeFailed("The answer", err))
			return
		}
		op = ledger.Put(ledger.ApprovalKey(m.Conversation, onceSubject(m.Site)),
			ledger.SiteOnce{Conversation: m.Conversation, Approval: raw, At: a.cfg.Now()})
	default:
		ctx.Respond(&messages.OwnerReply{Result: result})
		return
	}
	sender := ctx.Sender()
	save := func() {
		a.write(ctx, &ledger.Write{Owner: true, Ops: []ledger.Op{op}}, sender, func(err error) {
			if err != nil {
				reply(ctx, sender, storeFailed("The answer", err))
				return
			}
			reply(ctx, sender, &messages.OwnerReply{Result: result})
		})
	}
	if shared := a.cfg.Sites; ans.Always && shared != nil {
		ap := ans.Approval
		put := func(c context.Context) (int64, *messages.Error) { return shared.PutSite(c, ap) }
		sharedCall(ctx, &a.siteLists, a.applySites, put, func(e *messages.Error, done func()) {
			done()        // the gate holds the answer already
			if e != nil { // held here, and refused to the cluster: say so
				reply(ctx, sender, fail(e))
				return
			}
			save()
		})
		return
	}
	save()
}

// revokeSite forgets every answer about a site, durably: its approval for
// the project, its once-approvals in conversations, and its rejection.
// The owner is answered once the ledger has it.
func (a *Actor) revokeSite(ctx actor.Context, m *messages.RevokeSite) {
	if shared := a.cfg.Sites; shared != nil {
		sender := ctx.Sender()
		del := func(c context.Context) (int64, *messages.Error) { return shared.DeleteSite(c, m.Site) }
		sharedCall(ctx, &a.siteLists, a.applySites, del, func(e *messages.Error, done func()) {
			defer done() // the site is revoked here in this call, if at all
			if e != nil {
				reply(ctx, sender, fail(e))
				return
			}
			a.revokeSiteHere(ctx, m, sender)
		})
		return
	}
	a.revokeSiteHere(ctx, m, ctx.Sender())
}

// revokeSiteHere is revokeSite on this member.
func (a *Actor) revokeSiteHere(ctx actor.Context, m *messages.RevokeSite, sender *actor.PID) {
	r := a.sites.Revoke(m.Site)
	result := &messages.SiteRevoked{Site: m.Site, Removed: r.Removed}
	var ops []ledger.Op
	if r.Always {
		ops = append(ops, ledger.Delete(ledger.SiteKey(project, m.Site)))
	}
	for _, conv := range r.Conversations {
		ops = append(ops, ledger.Delete(ledger.ApprovalKey(conv, "site:"+m.Site)))
	}
	if len(ops) == 0 {
		reply(ctx, sender, &messages.OwnerReply{Result: result})
		return
	}
	a.write(ctx, &ledger.Write{Owner: true, Ops: ops}, sender, func(err error) {
		if err != nil {
			reply(ctx, sender, storeFailed("The revocation", err))
			return
		}
		reply(ctx, sender, &messages.OwnerReply{Result: result})
	})
}
