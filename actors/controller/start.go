package controller

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

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

// start loads the ledger, pushes the routing table and respawns the
// sessions of tasks still running.
func (a *Actor) start(ctx actor.Context) {
	st := a.cfg.Store
	a.sessions = map[string]*entry{}
	if a.carries == nil {
		a.carries = map[string]*session.Carry{}
	}
	a.pool = pool.New(a.cfg.Mode, drivers.PerProfile)
	a.stops = newStopping()
	must(func() (err error) { a.stop, err = st.Stop(); return })
	if s, ok := a.cfg.Carry.lastStop(); ok {
		a.stop = s // decided before a restart, perhaps not stored yet
	}
	a.sites = a.loadSites()
	agents, err := st.Agents()
	must(func() error { return err })
	a.agents = registry.New(agents)
	devs, err := st.Devices()
	must(func() error { return err })
	a.devices = devices.New(devs, a.cfg.Now)
	stored, err := st.Tasks()
	must(func() error { return err })
	a.tasks = tasks.New(stored, a.cfg.Now)
	a.pushRoutes(agents)
	for _, t := range a.tasks.All() {
		if t.State == ledger.TaskActive && a.cfg.Now().Before(t.Expires) {
			if e := a.spawn(ctx, t); e != nil {
				a.cfg.Log.Warn("could not resume a session", "conversation", t.Conversation, "err", e.Message)
			}
		}
	}
}

// pushRoutes makes the routing table say what this instance knows.
func (a *Actor) pushRoutes(agents []ledger.Agent) {
	r := a.cfg.Routes
	r.Reset()
	for _, ag := range agents {
		r.PutAgent(ag.TokenHash, routes.Agent{Name: ag.Name, Grants: ag.Grants})
	}
	r.SetStopped(a.stop.Stopped)
	r.SetAskSites(a.askSites())
}

func (a *Actor) loadSites() *sitegate.Gate {
	always, err := ledger.List[egress.Approval](a.cfg.Store, ledger.SitePrefix(project))
	must(func() error { return err })
	stored, err := a.cfg.Store.SiteOnce()
	must(func() error { return err })
	once := map[string][]egress.Approval{}
	for _, o := range stored {
		var ap egress.Approval
		if o.Conversation == "" || json.Unmarshal(o.Approval, &ap) != nil {
			continue
		}
		once[o.Conversation] = append(once[o.Conversation], ap)
	}
	return sitegate.New(a.askSites(), always, once, a.cfg.Now)
}

func must(f func() error) {
	if err := f(); err != nil {
		panic(fmt.Errorf("controller: reading the ledger: %w", err))
	}
}
