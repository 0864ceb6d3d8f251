package controller

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors"
	"github.com/buddi-dev/buddi/actors/controller/appgate"
	"github.com/buddi-dev/buddi/actors/controller/chat"
	"github.com/buddi-dev/buddi/actors/controller/devices"
	"github.com/buddi-dev/buddi/actors/controller/pool"
	"github.com/buddi-dev/buddi/actors/controller/registry"
	"github.com/buddi-dev/buddi/actors/controller/sitegate"
	"github.com/buddi-dev/buddi/actors/controller/tasks"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/actors/limits"
	"github.com/buddi-dev/buddi/actors/routes"
	"github.com/buddi-dev/buddi/actors/session"
	"github.com/buddi-dev/buddi/actors/stop"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// Config is what the controller needs.
type Config struct {
	Store  *ledger.Store
	Ledger *actor.PID
	// Mode opens the browser profiles sessions are placed on.
	Mode   drivers.Mode
	Policy session.URLPolicy
	// Secrets are the owner's own secrets, for every session.
	Secrets session.Secrets
	// Reach says what the install lets the browser open now, as
	// browser.status tells agents (nil: nothing said).
	Reach func() *messages.Reach
	// AgentProfiles gives each agent a browser profile of its own
	// (BUDDI_BROWSER_PROFILES=agent); the mode must offer them.
	AgentProfiles bool
	// AskSites turns on site approval: navigations the agent chose ask the
	// owner about sites not yet approved (BUDDI_SITE_APPROVAL=ask).
	AskSites bool
	// Routes is where the controller pushes who may call which session;
	// the gateway reads it. It outlives the controller's restarts.
	Routes *routes.Table
	// Bus receives the controller's and the sessions' events.
	Bus *events.Bus
	// Hand makes the hand of a take-over (nil: take-overs have none yet).
	Hand  func(conversation string, open func(context.Context) (drivers.Tabs, error)) *actor.Props
	Log   *slog.Logger
	Chaos func() bool
	Now   func() time.Time
	// Work counts what the sessions run off their mailboxes (session.Config.Work).
	Work *session.Work
	// Retention is how long a finished task is kept (0: for good); the
	// ledger prunes the store on the same retention.
	Retention time.Duration
	// Restarts counts session restarts (read by health and the load test).
	Restarts *atomic.Int64
	// Carry keeps what the controller must know across its own restarts.
	Carry *Carry
	// Stops shows the owner's Stop as the stop actor (Stop) decided it;
	// the controller follows Stop's decisions and fans them out. Nil
	// Stops: never stopped.
	Stops *stop.Board
	Stop  *actor.PID
	// Settings is the install's browser settings (nil: fixed at start, and
	// the settings routes say so).
	Settings Settings
	// Acts, when set, counts every act a session ran (the metrics).
	Acts func(action string, code messages.Code, took time.Duration)
	// Limits are the agents' rate limits, shared with the sessions; they
	// outlive the controller's restarts.
	Limits *limits.Agents
	// Membership names who keeps the cluster's member list (etcd, k8s or
	// consul), for the health answer; "" on a single host. In a cluster
	// the controller refuses new work until the stop actor says etcd
	// answers, and resumes no session when it starts.
	Membership string
	// Agents is the cluster's list of agents in etcd; nil on a single host.
	Agents SharedAgents
	// Sites is the cluster's answers "always" to sites in etcd; nil on a
	// single host.
	Sites SharedSites
}

// Carry is the controller's state that must survive its restart: the
// browser install under way and the cluster's member list.
type Carry struct {
	mu      sync.Mutex
	install install
	members *messages.ClusterMembers
	lapsed  time.Time // when this member's entry in the member list last lapsed
	routes  []string  // the members placement routes conversations to
}

// Actor is the controller: a thin router over its parts (agents, tasks,
// sites, the profile pool) and the sessions it supervises.
type Actor struct {
	cfg      Config
	fanned   uint64 // one more than the newest Stop decision told to the sessions
	agents   *registry.Registry
	tasks    *tasks.Book
	sites    *sitegate.Gate
	apps     *appgate.Gate // Use my apps: the owner's answers about apps
	devices  *devices.Book
	pool     *pool.Pool
	chat     *chat.Book
	sessions map[string]*entry // by conversation
	convOf   map[string]string // a session's PID (its Id) → its conversation, as sessions files it
	carries  map[string]*session.Carry
	moved    map[string]string      // conversation → the id it moved to
	moving   map[string]string      // both ids of a move under way → the other one
	deferred map[string]deferredEnd // ends of sessions whose move is being filed
	halting  bool                   // sessions stop because the controller does, not because they failed
	dead     bool                   // a restart replaced this instance; late continuations do nothing
	spawned  int                    // sessions spawned, for unique actor names
	sweeper  sweeper                // the timer of the book's sweeps
	// switching is true while new settings are applied: the browsers are
	// closing, and no session may start.
	switching bool
	// The cluster's lists of agents and of answers "always" as the watch
	// delivers them, guarded against one older than a change made here.
	agentLists listGuard[ClusterAgents]
	siteLists  listGuard[ClusterSites]
}

type entry struct {
	pid     *actor.PID
	profile int
	route   *routes.Session
	agent   string // the ID of the agent it runs for
}

// Props returns the controller's props, supervising its children with our
// capped backoff.
func Props(cfg Config) *actor.Props {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Restarts == nil {
		cfg.Restarts = &atomic.Int64{}
	}
	if cfg.Routes == nil {
		cfg.Routes = routes.New()
	}
	if cfg.Carry == nil {
		cfg.Carry = &Carry{}
	}
	if cfg.Stops == nil {
		cfg.Stops = stop.NewBoard(stop.View{})
	}
	if cfg.Limits == nil {
		cfg.Limits = limits.New(cfg.Now)
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	strategy := actors.DefaultBackoff(cfg.Log)
	strategy.OnRestart = func(*actor.PID, any) { cfg.Restarts.Add(1) }
	return actor.PropsFromProducer(func() actor.Actor { return &Actor{cfg: cfg} },
		actor.WithSupervisor(strategy), actor.WithDispatcher(actors.Dispatcher))
}

// Receive routes every message to the part that handles it.
func (a *Actor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		a.start(ctx)
	case *actor.Stopping:
		a.halting = true
		a.disarmSweep()
	case *actor.Restarting:
		// The next instance starts afresh from the ledger: this one's
		// browsers, timer and pending continuations must not outlive it.
		a.halting, a.dead = true, true
		a.disarmSweep()
		a.closeProfiles()
	case *actor.Stopped:
		a.closeProfiles()
	case *sweepDue:
		a.sweepTimed(ctx, m)
	case *messages.ToolCall:
		a.tool(ctx, m)
	case *messages.Identify:
		ctx.Respond(a.identify(m))
	case *messages.SessionEnded:
		a.ended(ctx, m)
	case *actor.Terminated:
		a.terminated(ctx, m.Who)
	case *stop.Changed:
		a.stopChanged(ctx, m)
	case *settingsApplied:
		a.settingsApplied(ctx, m)
	default:
		if !a.others(ctx) {
			actors.Unhandled(ctx, a.cfg.Log)
		}
	}
}

// others handles every message Receive leaves to a part; false for one no
// part knows.
func (a *Actor) others(ctx actor.Context) bool {
	return a.owner(ctx) || a.telegram(ctx) || a.dashboard(ctx) || a.cluster(ctx)
}

// owner handles the owner's messages; false for a message it does not know.
func (a *Actor) owner(ctx actor.Context) bool {
	switch m := ctx.Message().(type) {
	case *messages.StartTask:
		a.startTask(ctx, m)
	case *messages.DecideTask:
		a.decideTask(ctx, m)
	case *messages.MoveSession:
		a.move(ctx, m.Conversation, m.To, ownerMover(ctx.Sender()))
	case *messages.ListTasks:
		a.sweep(ctx)
		ctx.Respond(&messages.OwnerReply{Result: a.tasks.List()})
	case messages.Conversational:
		a.forwardControl(ctx, m.Target())
	case *messages.ListSessions:
		ctx.Respond(&messages.OwnerReply{Result: a.cfg.Routes.Sessions()})
	case *messages.AddAgent:
		a.addAgent(ctx, m)
	case *messages.RemoveAgent:
		a.removeAgent(ctx, m)
	case *messages.ListAgents:
		ctx.Respond(&messages.OwnerReply{Result: a.agents.List()})
	case *messages.ListSiteRequests:
		ctx.Respond(&messages.OwnerReply{Result: a.pendingRequests()})
	case *messages.DecideSite:
		a.decideSite(ctx, m)
	case *messages.GetHealth:
		ctx.Respond(a.health())
	default:
		return a.ownerBrowser(ctx)
	}
	return true
}

// ownerBrowser handles the owner's messages about the agents' browser
// itself: site answers, logins, the install; false for one it does not know.
func (a *Actor) ownerBrowser(ctx actor.Context) bool {
	switch m := ctx.Message().(type) {
	case *messages.ListSites:
		ctx.Respond(&messages.OwnerReply{Result: a.sites.List()})
	case *messages.RevokeSite:
		a.revokeSite(ctx, m)
	case *messages.ListLogins, *messages.SignOut:
		a.logins(ctx, m)
	case *messages.InstallBrowser:
		a.install(ctx)
	case *messages.GetInstall:
		ctx.Respond(&messages.OwnerReply{Result: a.cfg.Carry.install.state()})
	default:
		return false
	}
	return true
}

// dashboard handles the owner's messages the dashboard added; false for a
// message it does not know.
func (a *Actor) dashboard(ctx actor.Context) bool {
	switch m := ctx.Message().(type) {
	case *messages.GetSettings:
		a.getSettings(ctx)
	case *messages.ChangeSettings:
		a.changeSettings(ctx, m)
	case *messages.OpenBrowser:
		a.openBrowser(ctx, m)
	case *messages.AddDevice:
		a.addDevice(ctx, m)
	case *messages.FindDevice:
		a.findDevice(ctx, m)
	case *messages.ListDevices:
		ctx.Respond(&messages.OwnerReply{Result: a.devices.List()})
	case *messages.RemoveDevice:
		a.removeDevice(ctx, m)
	case *messages.GetPermissions:
		a.permissions(ctx, false)
	case *messages.RequestPermissions:
		a.permissions(ctx, true)
	default:
		return false
	}
	return true
}

func (a *Actor) health() *messages.Health {
	h := &messages.Health{Mode: a.cfg.Mode.Name(), Stopped: a.stopped(),
		Sessions: len(a.sessions), States: a.states(), Restarts: int(a.cfg.Restarts.Load()),
		Unhandled: int(actors.UnhandledCount())}
	if a.pool != nil {
		h.Capacity = a.pool.Capacity()
	}
	h.Browser = drivers.LaunchOf(a.cfg.Mode)
	if a.clustered() {
		h.Cluster = &messages.ClusterHealth{Membership: a.cfg.Membership, Etcd: "reachable", Members: a.cfg.Carry.memberList(),
			Lapsed: a.cfg.Carry.lapsedSaid(), Routes: a.cfg.Carry.routeList()}
		if e := a.clusterDown(); e != nil {
			h.Cluster.Etcd, h.Cluster.Problem = "unreachable", e.Message
		}
	}
	return h
}

func fail(e *messages.Error) *messages.OwnerReply { return messages.OwnerFail(e) }

// after runs cont once f completes, back in the mailbox, unless a restart
// replaced this instance meanwhile: its state is stale, so the caller is told
// to try again instead.
func (a *Actor) after(ctx actor.Context, f *actor.Future, sender *actor.PID, cont func(res any, err error)) {
	ctx.ReenterAfter(f, func(res any, err error) {
		if a.dead {
			reply(ctx, sender, fail(&messages.Error{Code: messages.CodeRestarted,
				Message: "buddi's controller restarted while this ran; check the state and try again."}))
			return
		}
		cont(res, err)
	})
}

// write sends w to the ledger and runs cont with the outcome in the mailbox.
func (a *Actor) write(ctx actor.Context, w *ledger.Write, sender *actor.PID, cont func(err error)) {
	f := ledger.Request(ctx, a.cfg.Ledger, w, ledgerTimeout)
	a.after(ctx, f, sender, func(res any, err error) { cont(ledger.Check(res, err)) })
}

// storeFailed is the owner's answer when the ledger did not take a write.
func storeFailed(what string, err error) *messages.OwnerReply {
	return fail(messages.CodeStoreFailed.Err(what, err.Error()))
}

func reply(ctx actor.Context, to *actor.PID, msg any) {
	if to != nil {
		ctx.Send(to, msg)
	}
}

// ledgerTimeout bounds one write the controller waits on.
const ledgerTimeout = 5 * time.Second

// closeProfiles releases the browsers once every session has stopped (the
// actor system stops children before the parent's Stopped).
func (a *Actor) closeProfiles() {
	if a.pool == nil {
		return
	}
	c, cancel := contextFor(closeWait)
	defer cancel()
	if err := a.pool.Close(c); err != nil {
		a.cfg.Log.Warn("closing the browsers failed", "err", err)
	}
}
