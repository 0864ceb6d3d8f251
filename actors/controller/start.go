package controller

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/controller/chat"
	"github.com/buddi-dev/buddi/actors/controller/devices"
	"github.com/buddi-dev/buddi/actors/controller/pool"
	"github.com/buddi-dev/buddi/actors/controller/registry"
	"github.com/buddi-dev/buddi/actors/controller/sitegate"
	"github.com/buddi-dev/buddi/actors/controller/tasks"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/actors/routes"
	"github.com/buddi-dev/buddi/actors/session"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/egress"
)

// Waits of the controller's own work.
const (
	closeWait = 10 * time.Second // closing the browsers as the controller stops
	openWait  = time.Minute      // opening a profile (a browser launch)
)

func contextFor(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}

// project is the one project this install has; site approvals are per project.
const project = "default"

// start loads the ledger, pushes the routing table, arms the sweeps of
// the book and respawns the sessions of tasks still running.
func (a *Actor) start(ctx actor.Context) {
	st := a.cfg.Store
	a.sessions, a.convOf = map[string]*entry{}, map[string]string{}
	a.moving, a.deferred = map[string]string{}, map[string]deferredEnd{}
	if a.carries == nil {
		a.carries = map[string]*session.Carry{}
	}
	var own drivers.AgentProfiles
	if a.cfg.AgentProfiles {
		own, _ = drivers.AgentProfilesOf(a.cfg.Mode)
	}
	a.pool = pool.New(a.cfg.Mode, drivers.PerProfile, own)
	a.chat = a.loadChat()
	agents, err := st.Agents()
	must(func() error { return err })
	var given []ledger.Agent
	a.agents, given = registry.New(agents)
	a.storeAgents(ctx, given)
	devs, err := st.Devices()
	must(func() error { return err })
	a.devices = devices.New(devs, a.cfg.Now)
	stored, err := st.Tasks()
	must(func() error { return err })
	a.tasks = tasks.New(stored, a.agentID, a.cfg.Now)
	a.moved = a.loadMoved()
	a.sites = a.loadSites(ctx)
	a.apps = a.loadApps(ctx)
	a.pushRoutes()
	a.follow(ctx)
	a.armSweep(ctx)
	if a.clustered() {
		return // in a cluster a session starts again where its conversation is next called (Adopt)
	}
	for _, t := range a.tasks.All() {
		if t.State == ledger.TaskActive && a.cfg.Now().Before(t.Expires) {
			if e := a.spawn(ctx, t); e != nil {
				a.cfg.Log.Warn("could not resume a session", "conversation", t.Conversation, "err", e.Message)
			}
		}
	}
}

// pushRoutes makes the routing table say what this instance knows.
func (a *Actor) pushRoutes() {
	r := a.cfg.Routes
	r.Reset()
	for _, ag := range a.agents.All() {
		r.PutAgent(ag.TokenHash, route(ag))
	}
	r.SetStopped(a.refusing())
	r.SetAskSites(a.askSites())
}

// loadSites reads the owner's site answers. A once answer whose task is
// no longer running (it ended while buddi was down, or before once answers
// ended with their task) is deleted instead.
func (a *Actor) loadSites(ctx actor.Context) *sitegate.Gate {
	always, err := ledger.List[egress.Approval](a.cfg.Store, ledger.SitePrefix(project))
	must(func() error { return err })
	stored, err := a.cfg.Store.SiteOnce()
	must(func() error { return err })
	once := map[string][]egress.Approval{}
	var stale []ledger.Op
	for _, o := range stored {
		var ap egress.Approval
		if o.Conversation == "" || json.Unmarshal(o.Approval, &ap) != nil {
			continue
		}
		if t, ok := a.tasks.Get(o.Conversation); !ok || t.State != ledger.TaskActive {
			stale = append(stale, ledger.Delete(ledger.ApprovalKey(o.Conversation, onceSubject(ap.Site.String()))))
			continue
		}
		once[o.Conversation] = append(once[o.Conversation], ap)
	}
	if len(stale) > 0 {
		ctx.Send(a.cfg.Ledger, &ledger.Write{Ops: stale})
	}
	var rules sitegate.Rules
	if a.cfg.Policy != nil {
		rules = a.cfg.Policy
	}
	return sitegate.New(a.askSites(), rules, always, once, a.cfg.Now)
}

func (a *Actor) loadChat() *chat.Book {
	pair, paired, err := a.cfg.Store.Telegram()
	must(func() error { return err })
	bound, err := a.cfg.Store.Bound()
	must(func() error { return err })
	if !paired {
		return chat.New(nil, bound)
	}
	return chat.New(&pair, bound)
}

func must(f func() error) {
	if err := f(); err != nil {
		panic(fmt.Errorf("controller: reading the ledger: %w", err))
	}
}

// storeAgents writes agents that were given an ID at start (stored before
// agents had IDs); nothing waits on it.
func (a *Actor) storeAgents(ctx actor.Context, agents []ledger.Agent) {
	if len(agents) == 0 {
		return
	}
	ops := make([]ledger.Op, 0, len(agents))
	for _, ag := range agents {
		ops = append(ops, ledger.Put(ledger.AgentKey(ag.Name), ag))
	}
	ctx.Send(a.cfg.Ledger, &ledger.Write{Owner: true, Ops: ops})
}

// agentID is the ID of the agent called name, or "".
func (a *Actor) agentID(name string) string {
	ag, _ := a.agents.Get(name)
	return ag.ID
}

// route is how the routing table knows ag.
func route(ag ledger.Agent) routes.Agent {
	return routes.Agent{ID: ag.ID, Name: ag.Name, Grants: ag.Grants}
}

// loadMoved reads which conversations moved, and to which id.
func (a *Actor) loadMoved() map[string]string {
	stored, err := a.cfg.Store.Moved()
	must(func() error { return err })
	out := make(map[string]string, len(stored))
	for _, m := range stored {
		out[m.From] = m.To
	}
	return out
}
