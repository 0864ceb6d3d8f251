package controller

import (
	"context"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// Settings is the install's browser settings, kept by the daemon in
// <data>/browser/settings.json: the mode (through the mode root), which
// browser and whether headless, site approval and air-gap.
type Settings interface {
	// Current is the settings as they are, without the browser's status or
	// the sessions: fast, and safe to call in Receive.
	Current() messages.BrowserSettings
	// Check refuses a change before anything happens: an unknown or
	// unavailable mode, a setting the environment fixes, a bad value.
	Check(m *messages.ChangeSettings) *messages.Error
	// Apply makes the change and saves it. The controller calls it with no
	// session open and every browser closed.
	Apply(ctx context.Context, m *messages.ChangeSettings) (messages.BrowserSettings, error)
}

// applyWait bounds closing the browsers and applying new settings.
const applyWait = 2 * time.Minute

// settingsApplied is Apply's outcome, back in the mailbox.
type settingsApplied struct {
	view  messages.BrowserSettings
	err   error
	owner *actor.PID
}

// askSites reports whether agent-chosen navigations ask the owner.
func (a *Actor) askSites() bool {
	if a.cfg.Settings != nil {
		return a.cfg.Settings.Current().SiteApproval == "ask"
	}
	return a.cfg.AskSites
}

// getSettings answers with the settings, the sessions open, and the
// browser's status, read off the mailbox.
func (a *Actor) getSettings(ctx actor.Context) {
	if a.cfg.Settings == nil {
		ctx.Respond(fail(messages.NotAvailable("Browser settings", "this buddi was started without them.")))
		return
	}
	v := a.cfg.Settings.Current()
	v.SessionsOpen = len(a.sessions)
	mode, to, sys := a.cfg.Mode, ctx.Sender(), ctx.ActorSystem()
	go func() {
		c, cancel := context.WithTimeout(context.Background(), statusWait)
		defer cancel()
		v.Browser = mode.Status(c)
		sys.Root.Send(to, &messages.OwnerReply{Result: &v})
	}()
}

// changeSettings applies a change only with no session open: every browser
// is closed first, off the mailbox, and no session starts until it is done.
func (a *Actor) changeSettings(ctx actor.Context, m *messages.ChangeSettings) {
	switch {
	case a.cfg.Settings == nil:
		ctx.Respond(fail(messages.NotAvailable("Browser settings", "this buddi was started without them.")))
		return
	case a.switching:
		ctx.Respond(fail(messages.CodeBusySettings.Err()))
		return
	}
	if e := a.cfg.Settings.Check(m); e != nil {
		ctx.Respond(fail(e))
		return
	}
	if n := len(a.sessions); n > 0 {
		ctx.Respond(fail(messages.SessionsOpen(n)))
		return
	}
	a.switching = true
	p, set, owner := a.pool, a.cfg.Settings, ctx.Sender()
	self, sys := ctx.Self(), ctx.ActorSystem()
	go func() {
		c, cancel := context.WithTimeout(context.Background(), applyWait)
		defer cancel()
		r := &settingsApplied{owner: owner}
		if r.err = p.Close(c); r.err == nil {
			r.view, r.err = set.Apply(c, m)
		}
		sys.Root.Send(self, r)
	}()
}

// settingsApplied answers the owner and takes up the new site approval.
func (a *Actor) settingsApplied(ctx actor.Context, m *settingsApplied) {
	a.switching = false
	if m.err != nil {
		a.cfg.Log.Error("the browser settings could not be applied", "err", m.err)
		reply(ctx, m.owner, storeFailed("The browser settings", m.err))
		return
	}
	if !a.cfg.AgentProfiles {
		drivers.Warm(a.cfg.Mode) // the browser closed for the change: the next one starts now
	}
	ask := m.view.SiteApproval == "ask"
	a.sites.SetAsk(ask)
	a.cfg.Routes.SetAskSites(ask)
	a.cfg.Log.Info("browser settings changed", "mode", m.view.Mode, "siteApproval", m.view.SiteApproval, "airGap", m.view.AirGap)
	reply(ctx, m.owner, &messages.OwnerReply{Result: &m.view})
}
