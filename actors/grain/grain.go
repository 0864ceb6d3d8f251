// Package grain is the actor of one conversation's grain in a cluster
// (cluster/grains places it on one member, every member reaches it): it
// takes the conversation's calls in order, lets the conversation prepare
// before its calls (a claim, an adoption) or turn a call away at once, runs
// what may block off the mailbox, so the grain goes on taking calls (a
// second act answers busy, as on one host), and stops itself when it has
// been idle and its member holds nothing of the conversation, so its place
// on the member is free for another.
//
// What a call means is the Conversation's: cluster/member claims the
// conversation, adopts a task that moved, and runs calls through this
// member's own actors.
//
// Concurrency: the Conversation's methods run in Receive, so its state is
// touched only there, and never block; the functions they hand back
// (Prepare's work, Keeps' check) and Run run on goroutines of their own,
// and what they return comes back through a future into the mailbox
// (ReenterAfter). While a preparation runs the grain holds the calls that
// come, in order, and answers them once it is done. A grain whose
// conversation was lost to another activation stops once its calls are
// answered.
package grain

import (
	"context"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// Conversation is what a grain serves. Its methods run in the grain's
// Receive and must not block: what blocks is in the functions they return,
// or in Run, which the grain runs off its mailbox.
type Conversation interface {
	// Prepare says what must happen before calls run. A non-nil answer
	// refuses the call at once. A non-nil work runs off the mailbox within
	// its ctx, and its result goes to Prepared; the calls that come
	// meanwhile wait for it. Both nil: the call runs now.
	Prepare() (answer any, work func(ctx context.Context) any)
	// Prepared takes work's result (nil when it did not finish in time);
	// a non-nil answer refuses every call that waited for it.
	Prepared(result any) (answer any)
	// Arrive takes a call before it runs: a non-nil answer is given at
	// once instead of running it.
	Arrive(msg any) (answer any)
	// Deadline is when the caller of msg stops waiting (zero: none said).
	Deadline(msg any) time.Time
	// Run answers msg within ctx.
	Run(ctx context.Context, msg any) any
	// Late is the answer to a call Run did not answer in time.
	Late() any
	// Keeps gives the check, run off the mailbox, of whether this member
	// holds anything of the conversation (a session, a task pending or
	// running).
	Keeps() (check func() bool)
	// Lost reports, after a call ran, whether the conversation now
	// belongs to another activation (a call found it claimed elsewhere):
	// the grain stops once no call of its runs, so the next call is
	// placed anew. Arrive answers the calls that come meanwhile.
	Lost() bool
}

// Idle is how long a grain without calls waits before it asks whether its
// member still holds anything of the conversation.
const Idle = 5 * time.Second

// PrepareWait bounds a Conversation's preparation; its work's ctx ends a
// margin before.
const PrepareWait = 11 * time.Second

// margin is kept of a caller's deadline for the answer's way back.
const margin = time.Second

// defaultWait bounds a call whose caller said no deadline.
const defaultWait = 2 * time.Minute

// keepsWait bounds the idle grain's check.
const keepsWait = 5 * time.Second

// New makes the grain of c (cluster/grains spawns it, as its Producer).
func New(c Conversation, log *slog.Logger) actor.Actor {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &grain{c: c, log: log}
}

type grain struct {
	c         Conversation
	log       *slog.Logger
	preparing bool
	held      []call // the calls that came while preparing, in order
	running   int    // calls running off the mailbox
	calls     uint64 // calls taken, so an idle check knows one came since
}

// call is one call and who waits for its answer.
type call struct {
	msg    any
	sender *actor.PID
}

func (g *grain) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		ctx.SetReceiveTimeout(Idle)
	case *actor.ReceiveTimeout:
		ctx.SetReceiveTimeout(Idle) // protoactor cancels it once it fired
		g.idle(ctx)
	case *actor.Stopping, *actor.Stopped, *actor.Restarting:
	default:
		g.take(ctx, call{msg: msg, sender: ctx.Sender()})
	}
}

// take runs a call, or holds it while the conversation prepares, or
// starts the preparation it needs first.
func (g *grain) take(ctx actor.Context, c call) {
	g.calls++
	if g.preparing {
		g.held = append(g.held, c)
		return
	}
	ans, work := g.c.Prepare()
	switch {
	case ans != nil:
		reply(ctx, c.sender, ans)
	case work != nil:
		g.prepare(ctx, work, c)
	default:
		g.call(ctx, c)
	}
}

// prepare runs work off the mailbox, holding first and the calls that
// come meanwhile, and then answers or runs them in order.
func (g *grain) prepare(ctx actor.Context, work func(context.Context) any, first call) {
	g.preparing, g.held = true, []call{first}
	fut := offMailbox(ctx, time.Now().Add(PrepareWait), work)
	ctx.ReenterAfter(fut, func(res any, err error) {
		var result any
		if a, ok := res.(*answer); ok && err == nil {
			result = a.v
		}
		held := g.held
		g.preparing, g.held = false, nil
		if ans := g.c.Prepared(result); ans != nil {
			for _, c := range held {
				reply(ctx, c.sender, ans)
			}
			return
		}
		for _, c := range held {
			g.call(ctx, c)
		}
	})
}

// call answers c at once when the conversation says so, or runs it.
func (g *grain) call(ctx actor.Context, c call) {
	if ans := g.c.Arrive(c.msg); ans != nil {
		reply(ctx, c.sender, ans)
		return
	}
	deadline := g.c.Deadline(c.msg)
	if deadline.IsZero() {
		deadline = time.Now().Add(defaultWait)
	}
	g.running++
	fut := offMailbox(ctx, deadline, func(ctx context.Context) any { return g.c.Run(ctx, c.msg) })
	ctx.ReenterAfter(fut, func(res any, err error) {
		g.running--
		if a, ok := res.(*answer); ok && err == nil {
			reply(ctx, c.sender, a.v)
		} else {
			reply(ctx, c.sender, g.c.Late())
		}
		if g.running == 0 && g.c.Lost() {
			g.log.Info("a conversation's grain stops: another activation holds the conversation now")
			ctx.Stop(ctx.Self())
		}
	})
}

// idle stops the grain when its member holds nothing of the conversation
// and no call came or runs meanwhile: its member's slot is free again.
func (g *grain) idle(ctx actor.Context) {
	if g.preparing || g.running > 0 {
		return
	}
	check, at := g.c.Keeps(), g.calls
	fut := offMailbox(ctx, time.Now().Add(keepsWait), func(context.Context) any { return check() })
	ctx.ReenterAfter(fut, func(res any, err error) {
		a, ok := res.(*answer)
		if !ok || err != nil || a.v != false || g.calls != at || g.preparing || g.running > 0 {
			return // it keeps something, a call came, or the check did not answer: stay
		}
		g.log.Debug("a conversation's grain stops: this member holds nothing of it")
		ctx.Stop(ctx.Self())
	})
}

// offMailbox runs f on a goroutine of its own with a context that ends a
// margin before deadline; its answer comes back through the future.
func offMailbox(ctx actor.Context, deadline time.Time, f func(context.Context) any) *actor.Future {
	fut := actor.NewFuture(ctx.ActorSystem(), max(time.Until(deadline), time.Millisecond))
	to, root := fut.PID(), ctx.ActorSystem().Root
	go func() {
		c, cancel := context.WithDeadline(context.Background(), deadline.Add(-margin))
		defer cancel()
		root.Send(to, &answer{f(c)})
	}()
	return fut
}

// reply sends an answer to whoever waits for it; a call sent without a
// sender waits for none.
func reply(ctx actor.Context, to *actor.PID, v any) {
	if to != nil {
		ctx.Send(to, v)
	}
}

// answer carries an answer through a future.
type answer struct{ v any }
