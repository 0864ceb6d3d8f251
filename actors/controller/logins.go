package controller

import (
	"context"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// loginsWait bounds listing or clearing logins: the browser may have to
// start first.
const loginsWait = 90 * time.Second

// logins lists the sites holding logins in the agents' browser profile, or
// signs out of one or all, off the mailbox: the browser may have to start.
func (a *Actor) logins(ctx actor.Context, msg any) {
	lg, ok := drivers.Current(a.cfg.Mode).(drivers.Logins)
	if !ok {
		ctx.Respond(fail(messages.Errorf(messages.CodeUnsupported,
			"The %s mode keeps no logins of its own.", a.cfg.Mode.Name())))
		return
	}
	to, sys := ctx.Sender(), ctx.ActorSystem()
	go func() {
		c, cancel := context.WithTimeout(context.Background(), loginsWait)
		defer cancel()
		sys.Root.Send(to, runLogins(c, lg, msg))
	}()
}

func runLogins(c context.Context, lg drivers.Logins, msg any) *messages.OwnerReply {
	if m, ok := msg.(*messages.SignOut); ok {
		site := m.Site
		if m.All {
			site = ""
		}
		sites, err := lg.SignOut(c, site)
		if err != nil {
			return fail(messages.ErrorOf(err, messages.CodeNoBrowser))
		}
		if sites == nil {
			sites = []string{} // a list, never null, in the answer
		}
		return &messages.OwnerReply{Result: &messages.SignedOut{Sites: sites}}
	}
	list, err := lg.Logins(c)
	if err != nil {
		return fail(messages.ErrorOf(err, messages.CodeNoBrowser))
	}
	if list == nil {
		list = messages.Logins{} // a list, never null, in the answer
	}
	return &messages.OwnerReply{Result: list}
}
