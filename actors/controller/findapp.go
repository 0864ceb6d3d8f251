package controller

import (
	"context"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// findWait bounds the search for an app by name: the finder's own five
// seconds, and its helper's start and exit around them.
const findWait = 8 * time.Second

// appFound is the search's outcome, back in the mailbox.
type appFound struct {
	app drivers.App
	err error
}

// appByName is the name an open in Use my apps asks for, and the mode's
// finder, when the open names an app by name rather than by id.
func (a *Actor) appByName(in *messages.ActInput) (string, drivers.AppFinder, bool) {
	if in == nil || in.Action != "open" || in.App == "" || in.AppID != "" {
		return "", nil, false
	}
	if _, ok := a.appSettings(); !ok {
		return "", nil, false
	}
	f, ok := drivers.AppFinderOf(a.cfg.Mode)
	return in.App, f, ok
}

// findApp resolves an open by name to the one installed app of that name,
// off the mailbox (the search may take five seconds), and then handles the
// call again as an open of that app's id: the owner's list and card see
// the id as found on this machine, and nothing is launched before they
// answer. None or several is refused with the finder's sentence.
func (a *Actor) findApp(ctx actor.Context, m *messages.ToolCall, name string, finder drivers.AppFinder) {
	sys := ctx.ActorSystem()
	f := actor.NewFuture(sys, findWait)
	pid := f.PID()
	go func() {
		c, cancel := context.WithTimeout(context.Background(), findWait-time.Second)
		defer cancel()
		app, err := finder.FindApp(c, name)
		sys.Root.Send(pid, &appFound{app: app, err: err})
	}()
	sender := ctx.Sender()
	ctx.ReenterAfter(f, func(res any, err error) {
		found, ok := res.(*appFound)
		switch {
		case a.dead:
			reply(ctx, sender, messages.FailWith(&messages.Error{Code: messages.CodeRestarted,
				Message: "buddi's controller restarted while it looked for the app; open it again."}))
		case err != nil || !ok:
			reply(ctx, sender, messages.FailWith(messages.Errorf(messages.CodeTimeout,
				"Looking for an app named %q did not finish in time; open it by its id (appId) instead.", name)))
		case found.err != nil:
			reply(ctx, sender, messages.FailWith(messages.ErrorOf(found.err, messages.CodeAppNotFound)))
		default:
			in := *m.Act
			in.AppID, in.App = found.app.ID, found.app.Name
			call := *m
			call.Act = &in
			a.tool(ctx, &call)
		}
	})
}
