package controller

import (
	"context"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// The Privacy & Safety lists: approved sites, declined sites, logins.

// loginsWait bounds reading or clearing the browser's cookies.
const loginsWait = 30 * time.Second

// revokeSite withdraws a lasting approval at once and answers once the
// ledger has forgotten it.
func (a *Actor) revokeSite(ctx actor.Context, m *messages.RevokeSite) {
	if !a.sites.Revoke(m.Site) {
		ctx.Respond(fail(messages.Errorf(messages.CodeNotFound, "%s is not an approved site; the list of approved sites shows the ones that are.", clipped(m.Site))))
		return
	}
	sender := ctx.Sender()
	a.write(ctx, &ledger.Write{Owner: true, Ops: []ledger.Op{ledger.Delete(ledger.SiteKey(project, m.Site))}}, sender, func(err error) {
		if err != nil {
			reply(ctx, sender, storeFailed("The revocation", err))
			return
		}
		reply(ctx, sender, &messages.OwnerReply{Result: &messages.SiteRevoked{Site: m.Site}})
	})
}

// askAgain forgets a no (they last for the life of the process only).
func (a *Actor) askAgain(ctx actor.Context, m *messages.AskAgain) {
	if !a.sites.AskAgain(m.Conversation, m.Site) {
		ctx.Respond(fail(messages.Errorf(messages.CodeNotFound, "Conversation %s has no no to %s on record.", clipped(m.Conversation), clipped(m.Site))))
		return
	}
	ctx.Respond(&messages.OwnerReply{Result: &messages.AskedAgain{Conversation: m.Conversation, Site: m.Site}})
}

// logins lists or clears the logins of the agents' browser profile. The
// profile opens if it is not open (the browser launches), like a session's
// first call; the reading runs off the mailbox.
func (a *Actor) logins(ctx actor.Context, signOut *messages.SignOutSite) {
	if a.switching {
		ctx.Respond(fail(messages.CodeBusySettings.Err()))
		return
	}
	c, cancel := contextFor(openWait)
	drv, e := a.pool.Profile(c, 0)
	cancel()
	if e != nil {
		ctx.Respond(fail(e))
		return
	}
	l, ok := drivers.LoginsOf(drv)
	if !ok {
		if signOut != nil {
			ctx.Respond(&messages.OwnerReply{Result: &messages.SignedOut{Sites: []string{}}})
			return
		}
		ctx.Respond(&messages.OwnerReply{Result: messages.LoginList{}})
		return
	}
	to, sys := ctx.Sender(), ctx.ActorSystem()
	go func() {
		c, cancel := context.WithTimeout(context.Background(), loginsWait)
		defer cancel()
		sys.Root.Send(to, loginsReply(c, l, signOut))
	}()
}

func loginsReply(c context.Context, l drivers.Logins, signOut *messages.SignOutSite) *messages.OwnerReply {
	if signOut == nil {
		list, err := l.Logins(c)
		if err != nil {
			return fail(messages.ErrorOf(err, messages.CodeNoBrowser))
		}
		return &messages.OwnerReply{Result: messages.LoginList(list)}
	}
	site := signOut.Site
	if signOut.All {
		site = ""
	}
	sites, err := l.SignOut(c, site)
	if err != nil {
		return fail(messages.ErrorOf(err, messages.CodeNoBrowser))
	}
	return &messages.OwnerReply{Result: &messages.SignedOut{Sites: sites}}
}

func clipped(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
