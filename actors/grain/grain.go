// Package grain is the actor of one conversation's grain in a cluster
// (cluster/grains places it on one member, every member reaches it): it
// takes the conversation's calls in order, lets the conversation turn one
// away at once or run it off the mailbox, so the grain goes on taking
// calls (a second act answers busy, as on one host), and stops itself when
// it has been idle and its member holds nothing of the conversation, so
// its place on the member is free for another.
//
// What a call means is the Conversation's: cluster/member claims the
// conversation, adopts a task that moved, and runs calls through this
// member's own actors.
//
// Concurrency: Arrive and Keeps run in Receive, so the Conversation's
// state is touched only there; Run runs on a goroutine of its own per
// call, and its answer comes back through a future into the mailbox.
// Arrive may block on etcd: issue 30 moves that off the mailbox.
package grain

import (
	"context"
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// Conversation is what a grain serves.
type Conversation interface {
	// Keeps reports whether this member holds anything of the
	// conversation (a session, a task pending or running).
	Keeps() bool
	// Arrive takes a call before it runs: a non-nil answer is given at
	// once instead of running it.
	Arrive(msg any) (answer any)
	// Deadline is when the caller of msg stops waiting (zero: none said).
	Deadline(msg any) time.Time
	// Run answers msg within ctx.
	Run(ctx context.Context, msg any) any
	// Late is the answer to a call Run did not answer in time.
	Late() any
}

// Idle is how long a grain without calls waits before it asks whether its
// member still holds anything of the conversation.
const Idle = 5 * time.Second

// margin is kept of a caller's deadline for the answer's way back.
const margin = time.Second

// defaultWait bounds a call whose caller said no deadline.
const defaultWait = 2 * time.Minute

// New makes the grain of c (cluster/grains spawns it, as its Producer).
func New(c Conversation, log *slog.Logger) actor.Actor {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &grain{c: c, log: log}
}

type grain struct {
	c   Conversation
	log *slog.Logger
}

func (g *grain) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		ctx.SetReceiveTimeout(Idle)
	case *actor.ReceiveTimeout:
		if !g.c.Keeps() {
			g.log.Debug("a conversation's grain stops: this member holds nothing of it")
			ctx.Stop(ctx.Self()) // its member's slot is free again
			return
		}
		ctx.SetReceiveTimeout(Idle) // protoactor cancels it once it fired
	case *actor.Stopping, *actor.Stopped, *actor.Restarting:
	default:
		if ans := g.c.Arrive(msg); ans != nil {
			ctx.Respond(ans)
			return
		}
		g.run(ctx, msg)
	}
}

// run answers with Run's answer from a goroutine of its own, back through
// a future into the mailbox.
func (g *grain) run(ctx actor.Context, msg any) {
	deadline := g.c.Deadline(msg)
	if deadline.IsZero() {
		deadline = time.Now().Add(defaultWait)
	}
	fut := actor.NewFuture(ctx.ActorSystem(), max(time.Until(deadline), time.Millisecond))
	to, root := fut.PID(), ctx.ActorSystem().Root
	go func() {
		c, cancel := context.WithDeadline(context.Background(), deadline.Add(-margin))
		defer cancel()
		root.Send(to, &answer{g.c.Run(c, msg)})
	}()
	ctx.ReenterAfter(fut, func(res any, err error) {
		if a, ok := res.(*answer); ok && err == nil {
			ctx.Respond(a.v)
			return
		}
		ctx.Respond(g.c.Late())
	})
}

// answer carries Run's answer through the future.
type answer struct{ v any }
