package session

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/actors/limits"
	"github.com/buddi-dev/buddi/actors/routes"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// URLPolicy checks a URL before navigation; nil error allows it. A
// messages.Coded error keeps its code.
type URLPolicy interface {
	CheckURL(raw, source string) error
	// CheckInput refuses input to the page at pageURL (air-gap).
	CheckInput(pageURL string) error
	// Preview reports whether raw is one of the owner's preview origins,
	// which site approval never gates.
	Preview(raw string) bool
	// Masked tells of values masked in what the agent read: no URL may
	// carry one from then on.
	Masked(values []string)
}

// Config is what a session needs; Carry must be the same value across the
// actor's restarts (the producer closes over it).
type Config struct {
	Conversation string
	// Tabs is the id the driver knows this session's tabs by: the
	// conversation's id when the session started (a move keeps the tabs).
	// Empty: Conversation.
	Tabs    string
	Agent   string // the agent's name
	AgentID string // the agent's ID, for its limits
	// Limits are the agents' rate limits; nil means none (tests).
	Limits     *limits.Agents
	Profile    int
	Store      *ledger.Store
	Ledger     *actor.PID
	Controller *actor.PID
	Driver     drivers.Driver
	Policy     URLPolicy
	// Secrets are the owner's own secrets (secret_list, secret_fill); nil
	// means none.
	Secrets Secrets
	// Reach says what the install lets the browser open now, as
	// browser.status tells agents; it follows air-gap turned on or off
	// (nil: nothing said).
	Reach func() *messages.Reach
	Carry *Carry
	// Route is this session's entry in the routing table: the session shows
	// its state there. Nil in tests that route nothing.
	Route *routes.Session
	// Bus receives the session's events; nil drops them.
	Bus *events.Bus
	// Hand, when set, makes the hand a take-over runs (the remote hand);
	// open gives it the session's tabs (opening them if none are): the
	// session spawns it as its child on take-over and hands back only after
	// it answered GiveBack.
	Hand func(conversation string, open func(context.Context) (drivers.Tabs, error)) *actor.Props
	Log  *slog.Logger
	// Surface is where the conversation is bound when the session starts
	// (messages.SurfaceTelegram, or "" for none); BindSurface changes it.
	Surface messages.Surface
	// Chaos, when set and returning true, panics the actor as an action
	// completes: the crash test and the load test's fault injection.
	Chaos func() bool
	Now   func() time.Time
	// Acts, when set, counts every act that ran: its action, its refusal
	// code ("" when it succeeded) and how long it took (the metrics).
	Acts func(action string, code messages.Code, took time.Duration)
	// Work counts what the session runs off its mailbox (an act, a picture,
	// closing its tabs), so a daemon shutting down can wait for it; nil
	// counts nothing.
	Work *Work
}

// off runs f off the mailbox, counted in Work.
func (a *Actor) off(f func()) { a.cfg.Work.Go(f) }

// Carry survives restarts of one session actor: the caller of the action
// in flight, so a restarted session can answer it, the surface the
// controller last bound the conversation to, and the steps used, which
// the ledger commits a little later (ledger.LazyWait) than they are taken.
type Carry struct {
	mu       sync.Mutex
	inflight *actor.PID
	surface  *messages.Surface
	movedTo  string // the conversation's id after a move, or ""
	steps    atomic.Int64
}

// stepsUsed records the steps used as they are written.
func (c *Carry) stepsUsed(n int) { c.steps.Store(int64(n)) }

// moved records the conversation's new id: a restarted session answers to it.
func (c *Carry) moved(to string) { c.mu.Lock(); c.movedTo = to; c.mu.Unlock() }

// conversation is the id the session answers to now.
func (c *Carry) conversation(def string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.movedTo == "" {
		return def
	}
	return c.movedTo
}

// bindSurface records where the conversation answers now.
func (c *Carry) bindSurface(s messages.Surface) { c.mu.Lock(); c.surface = &s; c.mu.Unlock() }

// surfaceOr is the surface last bound, or def when none was.
func (c *Carry) surfaceOr(def messages.Surface) messages.Surface {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.surface == nil {
		return def
	}
	return *c.surface
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
	cfg    Config
	st     state
	task   ledger.Task
	rec    ledger.Session
	tabs   drivers.Tabs
	ev     evidence
	seq    int
	fails  failures
	shots  messages.Shots
	url    string
	title  string
	codes  []string // one-time codes typed, masked in every address kept (memory only)
	page   int      // counts the steps that may have changed the page: StepTaken.Page
	expiry *time.Timer
	snap   *messages.Snapshot // the owner's latest view of the page
	asking []*actor.PID       // owners waiting for a snapshot being taken
	pics   pictures
	pageAt time.Time // when the page last may have changed
	// unrecorded counts refusals past the agent's rate, answered but not
	// recorded one by one.
	unrecorded int
	// onceApps are the apps the owner allowed once for this conversation
	// that it opened (Use my apps), for the pictures a surface sends. A
	// restarted session starts without them: its pictures fail closed.
	onceApps map[string]bool
	steps    stepsKey
}

// stepsKey is the ledger key of a conversation's step counter, kept with
// the conversation it was made for (a move changes the conversation).
type stepsKey struct {
	conv string
	key  []byte
	name string // key as a string, for Store.SetSteps
}

// New returns a producer for one conversation's session actor.
func New(cfg Config) actor.Producer {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Carry == nil {
		cfg.Carry = &Carry{}
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Tabs == "" {
		cfg.Tabs = cfg.Conversation
	}
	return func() actor.Actor {
		c := cfg
		c.Conversation = cfg.Carry.conversation(cfg.Conversation)
		return &Actor{cfg: c, st: &ready{}, onceApps: map[string]bool{}}
	}
}

// Receive handles lifecycle and timer messages, the results of driver
// calls and the hand's answer, and hands agent calls and owner controls to
// the state the session is in.
func (a *Actor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		a.start(ctx)
	case *actor.Restarting:
		a.disarmExpiry()
		a.st.leave()
	case *actor.Stopping:
		a.stopping(ctx)
	case *actor.Stopped, *actor.Terminated:
	case *expired:
		a.expire(ctx)
	case *messages.Screenshots:
		ctx.Respond(&messages.OwnerReply{Result: a.shots})
	case *messages.SnapshotOf:
		a.snapshotOf(ctx)
	case *snapped:
		a.snapped(ctx, m)
	case *snapDue:
		a.pics.due = false
		a.pictureSoon(ctx, nil)
	case *snapQuietEnd:
		a.quietEnded(ctx)
	case *done:
		a.finish(ctx, m)
	case *messages.AgentCall, *messages.TakeOver, *messages.Resume, *messages.Release, *messages.StopAll, *messages.ResumeAll:
		a.receive(ctx)
	default:
		if !a.handMessage(ctx) {
			actors.Unhandled(ctx, a.cfg.Log)
		}
	}
}

// handMessage handles what concerns the take-over's hand; false for a
// message it does not know.
func (a *Actor) handMessage(ctx actor.Context) bool {
	switch m := ctx.Message().(type) {
	case *messages.HandReleased:
		a.handReleased(ctx)
	case *messages.BindSurface:
		a.cfg.Carry.bindSurface(m.Surface)
	case *messages.HandOpen:
		a.handOpen(ctx)
	case *messages.HandEnded:
		a.handEnded(ctx)
	case *messages.HandDriving:
		a.handDriving(ctx, m)
	case *handTimeout:
		a.handTimedOut(ctx, m)
	case *Move:
		a.move(ctx, m)
	default:
		return false
	}
	return true
}

// stopping answers the caller of an action still in flight: the session is
// going away and the action will not be finished.
func (a *Actor) stopping(ctx actor.Context) {
	a.disarmExpiry()
	a.snapshotGone(ctx)
	if w, ok := a.st.(*working); ok {
		w.cancel()
		ctx.Send(w.replyTo, messages.Fail(messages.CodeReleased,
			"The session ended while this action ran; it was abandoned and not repeated."))
		a.cfg.Carry.take()
		a.become(&ready{})
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
	rec.StepsUsed = max(rec.StepsUsed, steps.Used, int(a.cfg.Carry.steps.Load()))
	rec.Profile = a.cfg.Profile
	rec.Epoch++
	a.rec = rec
	a.ev.void("the session restarted")
	stop, err := st.Stop()
	if err != nil {
		panic(err)
	}
	switch {
	case stop.Stopped:
		a.st = &stopped{}
	case rec.TakenOver:
		a.st = &takenOver{}
	case rec.Paused:
		a.st = &paused{reason: rec.PauseReason}
	default:
		a.st = &ready{}
	}
	a.persist(ctx)
	if p := a.cfg.Carry.take(); p != nil {
		ctx.Send(p, restartedResult())
	}
	a.armExpiry(ctx)
}

func (a *Actor) armExpiry(ctx actor.Context) {
	left := max(a.task.Expires.Sub(a.cfg.Now()), 0)
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

// reach is what the install lets the browser open now, or nil.
func (a *Actor) reach() *messages.Reach {
	if a.cfg.Reach == nil {
		return nil
	}
	return a.cfg.Reach()
}

// surface is where the conversation is bound now.
func (a *Actor) surface() messages.Surface { return a.cfg.Carry.surfaceOr(a.cfg.Surface) }

// watched reports whether a surface shows every step of this conversation,
// so every step leaves a picture of the page for it.
func (a *Actor) watched() bool { return a.surface() == messages.SurfaceTelegram }
