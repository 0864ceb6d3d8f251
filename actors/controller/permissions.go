package controller

import (
	"context"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/messages"
)

// Permissions is an optional capability of Settings: what Use my apps'
// helper finds it has, and asking the system for the rest.
type Permissions interface {
	// Permissions runs the helper's probe (which never prompts), or with
	// request its request for permissions, within ctx.
	Permissions(ctx context.Context, request bool) messages.Permissions
}

// permissionsWait bounds the helper's answer: on macOS a request waits on
// the system's prompts.
const permissionsWait = 25 * time.Second

// permissions answers the owner's check or request, off the mailbox. A
// request is refused while any session is open, as a change of settings is.
func (a *Actor) permissions(ctx actor.Context, request bool) {
	p, ok := a.cfg.Settings.(Permissions)
	switch {
	case !ok:
		ctx.Respond(fail(messages.NotAvailable("Use my apps permissions", "this buddi was started without browser settings.")))
		return
	case request && a.switching:
		ctx.Respond(fail(messages.CodeBusySettings.Err()))
		return
	case request && len(a.sessions) > 0:
		n, plural := len(a.sessions), "s"
		if n == 1 {
			plural = ""
		}
		ctx.Respond(fail(messages.Errorf(messages.CodeSessionsOpen, "Permissions are requested only with no session open, so that no agent is working when the system asks; release the %d open session%s first (Close & release on the Host browser page, or `buddi release CONV`).", n, plural)))
		return
	}
	to, sys := ctx.Sender(), ctx.ActorSystem()
	go func() {
		c, cancel := context.WithTimeout(context.Background(), permissionsWait)
		defer cancel()
		v := p.Permissions(c, request)
		sys.Root.Send(to, &messages.OwnerReply{Result: &v})
	}()
}
