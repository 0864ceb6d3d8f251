package desktop

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// lockWait bounds a conversation's wait for the lock's answer.
const lockWait = 10 * time.Second

// Follow keeps the lock at pid in step with the owner until ctx ends: it
// tells it first whether the Stop is in force now (stopped), then every
// Stop and resume published on bus (a Stop revokes computer control, a
// resume gives it back, and the lock keeps that in the ledger), and with
// sessions, whether each Use my apps conversation is taken over (its lease
// does not run out while the owner is at the computer). The returned wait
// returns once it has stopped.
func Follow(ctx context.Context, bus *events.Bus, root *actor.RootContext, pid *actor.PID, stopped, sessions bool) (wait func()) {
	if stopped {
		root.Send(pid, &Revoke{})
	}
	kinds := messages.KindStop
	if sessions {
		kinds |= messages.KindSession
	}
	sub := bus.Subscribe(events.Filter{Kinds: kinds, Passive: true, Size: 256})
	var wg sync.WaitGroup
	wg.Go(func() {
		defer sub.Close()
		for {
			e, err := sub.Next(ctx)
			if err != nil {
				return
			}
			switch s := e.(type) {
			case *messages.StopChanged:
				var msg any = &Resume{}
				if s.Stopped {
					msg = &Revoke{}
				}
				root.Send(pid, msg)
			case *messages.SessionChanged:
				if s.Session.Computer {
					root.Send(pid, &Hold{Conversation: s.Session.Conversation,
						On: !s.Ended && s.Session.State == messages.StateTakenOver})
				}
			}
		}
	})
	return wg.Wait
}

// Client is the lock as Use my apps' driver asks it (drivers/native's Lock).
type Client struct {
	Root *actor.RootContext
	PID  *actor.PID
}

// Acquire takes or renews the lock for conv.
func (c Client) Acquire(ctx context.Context, conv string) error {
	wait := lockWait
	if dl, ok := ctx.Deadline(); ok {
		wait = min(wait, time.Until(dl))
	}
	res, err := c.Root.RequestFuture(c.PID, &Acquire{Conversation: conv}, wait).Result()
	if err != nil {
		return messages.Errorf(messages.CodeTimeout, "The desktop lock did not answer; try again in a moment.")
	}
	switch r := res.(type) {
	case *Held:
		return nil
	case *Refused:
		return r.Err
	}
	return errors.New("desktop: the lock answered something unexpected")
}

// Release gives the lock back if conv holds it, and returns once the lock
// has taken that in (or after lockWait, or when ctx ends), so that a
// release the owner was told of is one another conversation's open sees.
func (c Client) Release(ctx context.Context, conv string) {
	wait := lockWait
	if dl, ok := ctx.Deadline(); ok {
		wait = min(wait, time.Until(dl))
	}
	_, _ = c.Root.RequestFuture(c.PID, &Release{Conversation: conv}, max(wait, time.Millisecond)).Result()
}
