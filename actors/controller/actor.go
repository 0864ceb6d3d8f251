package controller

import (
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/actors/session"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// PerProfile is how many sessions share one browser profile.
const PerProfile = 8

// Config is what the controller needs.
type Config struct {
	Store  *ledger.Store
	Ledger *actor.PID
	// Profile returns the driver of profile i (0, 1, …). MaxProfiles bounds i.
	Profile     func(i int) (drivers.Driver, error)
	MaxProfiles int
	// Browser reports what agents would use, without launching it.
	Browser func() drivers.Status
	Mode    string
	Policy  session.URLPolicy
	// AskSites turns on site approval: navigations the agent chose ask the
	// owner about sites not yet approved (BUDDI_SITE_APPROVAL=ask).
	AskSites bool
	Log      *slog.Logger
	Chaos    func() bool
	Now      func() time.Time
	// Restarts counts session restarts (read by health and the load test).
	Restarts *atomic.Int64
}

// Actor is the controller.
type Actor struct {
	cfg      Config
	ledger   *actor.PID
	stop     ledger.Stop
	agents   map[string]*ledger.Agent // by name
	byHash   map[string]string        // token hash → name
	tasks    map[string]*ledger.Task  // by conversation
	sessions map[string]*entry        // by conversation
	profiles []*profile
	carries  map[string]*session.Carry
	sites    sites
	stopping bool // sessions stop because the controller does, not because they failed
	dead     bool // a restart replaced this instance; late continuations do nothing
	spawned  int  // sessions spawned, for unique actor names
}

type entry struct {
	pid     *actor.PID
	profile int
	info    messages.SessionInfo
}

type profile struct {
	drv drivers.Driver
	n   int
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
	strategy := actors.DefaultBackoff(cfg.Log)
	strategy.OnRestart = func(*actor.PID, any) { cfg.Restarts.Add(1) }
	return actor.PropsFromProducer(func() actor.Actor { return &Actor{cfg: cfg} },
		actor.WithSupervisor(strategy))
}

// Receive dispatches every message the controller handles.
func (a *Actor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		a.start(ctx)
	case *actor.Stopping:
		a.stopping = true
	case *actor.Restarting:
		// The next instance starts afresh from the ledger: this one's
		// browsers and pending continuations must not outlive it.
		a.stopping, a.dead = true, true
		a.closeProfiles()
	case *actor.Stopped:
		a.closeProfiles()
	case *messages.ToolCall:
		a.tool(ctx, m)
	case *messages.Identify:
		ctx.Respond(a.identify(m))
	case *messages.SessionState:
		if e := a.sessions[m.Info.Conversation]; e != nil {
			e.info = m.Info
		}
	case *messages.SessionEnded:
		a.ended(ctx, m)
	case *actor.Terminated:
		a.terminated(ctx, m.Who)
	default:
		a.owner(ctx)
	}
}

// owner handles the owner's messages.
func (a *Actor) owner(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *messages.StartTask:
		a.startTask(ctx, m)
	case *messages.DecideTask:
		a.decideTask(ctx, m)
	case *messages.ListTasks:
		ctx.Respond(&messages.OwnerReply{Result: a.taskList()})
	case *messages.TakeOver, *messages.Resume, *messages.Release, *messages.Screenshots:
		a.forwardControl(ctx)
	case *messages.StopAll:
		a.stopAll(ctx)
	case *messages.ResumeAll:
		a.resumeAll(ctx)
	case *messages.ListSessions:
		ctx.Respond(&messages.OwnerReply{Result: a.sessionList()})
	case *messages.AddAgent:
		a.addAgent(ctx, m)
	case *messages.RemoveAgent:
		a.removeAgent(ctx, m)
	case *messages.ListAgents:
		ctx.Respond(&messages.OwnerReply{Result: a.agentList()})
	case *messages.ListSiteRequests:
		ctx.Respond(&messages.OwnerReply{Result: a.siteRequests()})
	case *messages.DecideSite:
		a.decideSite(ctx, m)
	case *messages.Health:
		ctx.Respond(&messages.HealthInfo{Mode: a.cfg.Mode, Stopped: a.stop.Stopped,
			Sessions: len(a.sessions), Restarts: int(a.cfg.Restarts.Load())})
	}
}

// closeProfiles releases the browsers once every session has stopped (the
// actor system stops children before the parent's Stopped).
func (a *Actor) closeProfiles() {
	for _, p := range a.profiles {
		if p != nil && p.drv != nil {
			if err := p.drv.Close(); err != nil {
				a.cfg.Log.Warn("closing the browser failed", "err", err)
			}
		}
	}
}

func fail(code, msg string) *messages.OwnerReply {
	return &messages.OwnerReply{Error: &messages.Error{Code: code, Message: msg}}
}

// after runs cont once f completes, back in the mailbox, unless a restart
// replaced this instance meanwhile: its state is stale, so the caller is told
// to try again instead.
func (a *Actor) after(ctx actor.Context, f *actor.Future, sender *actor.PID, cont func(res any, err error)) {
	ctx.ReenterAfter(f, func(res any, err error) {
		if a.dead {
			reply(ctx, sender, fail("restarted", "buddi's controller restarted while this ran; check the state and try again."))
			return
		}
		cont(res, err)
	})
}
