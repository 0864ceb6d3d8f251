package controller

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/controller/appgate"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// AppSettings is an optional capability of Settings: Use my apps' list of
// allowed apps, which only the owner changes (here, through Always).
type AppSettings interface {
	// AppsInUse reports whether the install is in Use my apps now.
	AppsInUse() bool
	// AppAllowed reports whether id is the browser app or on the list.
	AppAllowed(id string) bool
	// AllowApp adds id to the list and saves settings.json; false, and
	// nothing changed, when the list is full.
	AllowApp(id string) (bool, error)
}

// loadApps reads the owner's answers about apps, which hold for their
// conversation through every task it is given; those of a conversation
// buddi no longer knows (no task of it kept) are deleted instead.
func (a *Actor) loadApps(ctx actor.Context) *appgate.Gate {
	g := appgate.New(a.cfg.Now)
	stored, err := a.cfg.Store.AppAnswers()
	must(func() error { return err })
	var stale []ledger.Op
	for _, ans := range stored {
		if _, ok := a.tasks.Get(ans.Conversation); !ok {
			stale = append(stale, ledger.Delete(ledger.AppKey(ans.Conversation, ans.App)))
			continue
		}
		g.Load(ans.Conversation, ans.App, ans.Name, ans.Decision)
	}
	if len(stale) > 0 {
		ctx.Send(a.cfg.Ledger, &ledger.Write{Ops: stale})
	}
	return g
}

func (a *Actor) appSettings() (AppSettings, bool) {
	s, ok := a.cfg.Settings.(AppSettings)
	return s, ok && s.AppsInUse()
}

// checkApp gates an agent's open in Use my apps; nothing in other modes,
// where the session refuses open itself.
func (a *Actor) checkApp(conv, agent string, in *messages.ActInput) (*messages.Error, *messages.SiteRequest) {
	s, ok := a.appSettings()
	if !ok {
		return nil, nil
	}
	return a.apps.Check(conv, agent, in, s.AppAllowed)
}

// appOnce is the app an open goes to when the owner allowed it once for
// the conversation (and it is not on the list), for the session to keep.
func (a *Actor) appOnce(conv string, in *messages.ActInput) string {
	s, ok := a.appSettings()
	if !ok || in == nil || in.Action != "open" || in.AppID == "" || s.AppAllowed(in.AppID) || !a.apps.Once(conv, in.AppID) {
		return ""
	}
	return in.AppID
}

// pendingRequests is every waiting site and app request, oldest first.
func (a *Actor) pendingRequests() messages.SiteRequests {
	out := append(a.sites.Pending(), a.apps.Pending()...)
	out.OldestFirst()
	return out
}

// decideApp records the owner's answer about an app: Always goes to the
// list in settings.json (counted as Once when the list is full); Once and
// Reject go to the ledger for the conversation. The owner is answered once
// they are saved.
func (a *Actor) decideApp(ctx actor.Context, m *messages.DecideSite) {
	req, e := a.apps.Decide(m)
	if e != nil {
		ctx.Respond(fail(e))
		return
	}
	decision := m.Decision
	if decision == messages.DecideAlways {
		added := false
		if s, ok := a.cfg.Settings.(AppSettings); ok {
			var err error
			if added, err = s.AllowApp(req.App); err != nil {
				ctx.Respond(storeFailed("The answer", err))
				return
			}
		}
		if !added {
			decision = messages.DecideOnce // the list is full
		}
	}
	a.cfg.Bus.Publish(&messages.ApprovalRequested{Request: req, Decision: m.Decision})
	result := &messages.SiteDecision{Site: m.Site, Decision: decision}
	if decision == messages.DecideAlways {
		ctx.Respond(&messages.OwnerReply{Result: result})
		return
	}
	op := ledger.Put(ledger.AppKey(m.Conversation, req.App),
		ledger.AppAnswer{Conversation: m.Conversation, App: req.App, Name: req.AppName, Decision: decision, At: a.cfg.Now().UTC().Truncate(time.Millisecond)})
	sender := ctx.Sender()
	a.write(ctx, &ledger.Write{Owner: true, Ops: []ledger.Op{op}}, sender, func(err error) {
		if err != nil {
			reply(ctx, sender, storeFailed("The answer", err))
			return
		}
		reply(ctx, sender, &messages.OwnerReply{Result: result})
	})
}
