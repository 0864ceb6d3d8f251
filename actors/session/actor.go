package session

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// URLPolicy checks a URL before navigation; nil error allows it. An error
// with a Code() method keeps its code.
type URLPolicy interface {
	CheckURL(raw, source string) error
	// CheckInput refuses input to the page at pageURL (air-gap).
	CheckInput(pageURL string) error
}

// Config is what a session needs; Carry must be the same value across the
// actor's restarts (the producer closes over it).
type Config struct {
	Conversation string
	Agent        string
	Profile      int
	Store        *ledger.Store
	Ledger       *actor.PID
	Controller   *actor.PID
	Driver       drivers.Driver
	Policy       URLPolicy
	Carry        *Carry
	Log          *slog.Logger
	// Chaos, when set and returning true, panics the actor as an action
	// completes: the crash test and the load test's fault injection.
	Chaos func() bool
	Now   func() time.Time
}

// Carry survives restarts of one session actor.
type Carry struct {
	mu       sync.Mutex
	inflight *actor.PID
}

func (c *Carry) set(p *actor.PID) { c.mu.Lock(); c.inflight = p; c.mu.Unlock() }

func (c *Carry) take() *actor.PID {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.inflight
	c.inflight = nil
	return p
}

// Actor is one conversation's session.
type Actor struct {
	cfg      Config
	behavior actor.Behavior
	task     ledger.Task
	rec      ledger.Session
	tabs     drivers.Tabs
	ev       evidence
	seq      int
	inflight *inflight
	fails    failures
	shots    []shot
	url      string
	ended    bool
	// closeLate: tabs still being opened by the call in flight must be
	// closed when they arrive (a Stop came first).
	closeLate bool
	expiry    *time.Timer
}

// inflight is the action running off the mailbox.
type inflight struct {
	seq     int
	replyTo *actor.PID
	in      *messages.ActInput
	cancel  context.CancelFunc
}

// New returns a producer for one conversation's session actor.
func New(cfg Config) actor.Producer {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Carry == nil {
		cfg.Carry = &Carry{}
	}
	return func() actor.Actor {
		a := &Actor{cfg: cfg, behavior: actor.NewBehavior()}
		a.behavior.Become(a.ready)
		return a
	}
}

// Receive handles lifecycle messages, then hands the rest to the behaviour.
func (a *Actor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		a.start(ctx)
	case *actor.Restarting:
		a.disarmExpiry()
		if a.inflight != nil {
			a.inflight.cancel()
		}
	case *actor.Stopping:
		a.disarmExpiry()
		if a.inflight != nil {
			a.inflight.cancel()
			ctx.Send(a.inflight.replyTo, messages.Fail("released",
				"The session ended while this action ran; it was abandoned and not repeated."))
			a.inflight = nil
			a.cfg.Carry.take()
		}
	case *expired:
		a.expire(ctx)
	case *messages.Screenshots:
		ctx.Respond(&messages.OwnerReply{Result: a.shots})
	case *done:
		a.finish(ctx, m)
	default:
		a.behavior.Receive(ctx)
	}
}

// start loads identity and task from the ledger; after a restart the epoch
// rises so older evidence and requests are fenced off.
func (a *Actor) start(ctx actor.Context) {
	st := a.cfg.Store
	task, _, err := st.Task(a.cfg.Conversation)
	if err != nil {
		panic(err)
	}
	a.task = task
	rec, found, err := st.Session(a.cfg.Conversation)
	if err != nil {
		panic(err)
	}
	if !found || rec.ID == "" {
		rec = ledger.Session{Conversation: a.cfg.Conversation, Agent: a.cfg.Agent,
			ID: newID(), Expires: task.Expires}
	}
	steps, err := st.Steps(a.cfg.Conversation)
	if err != nil {
		panic(err)
	}
	rec.StepsUsed = max(rec.StepsUsed, steps.Used)
	rec.Profile = a.cfg.Profile
	rec.Epoch++
	a.rec = rec
	a.ev.void("the session restarted")
	a.persist(ctx, false)
	if p := a.cfg.Carry.take(); p != nil {
		ctx.Send(p, restartedResult())
	}
	switch {
	case rec.TakenOver:
		a.behavior.Become(a.takenOver)
	case rec.Paused:
		a.behavior.Become(a.paused)
	}
	a.armExpiry(ctx)
	a.publish(ctx)
}

func (a *Actor) armExpiry(ctx actor.Context) {
	left := a.task.Expires.Sub(a.cfg.Now())
	if left < 0 {
		left = 0
	}
	self, sys := ctx.Self(), ctx.ActorSystem()
	a.disarmExpiry()
	a.expiry = time.AfterFunc(left, func() { sys.Root.Send(self, &expired{}) })
}

// disarmExpiry stops the expiry timer: a pending timer holds the actor's
// PID, and through it the whole actor, until it fires.
func (a *Actor) disarmExpiry() {
	if a.expiry != nil {
		a.expiry.Stop()
		a.expiry = nil
	}
}

// expired is the timer message for the task's lifetime.
type expired struct{}
