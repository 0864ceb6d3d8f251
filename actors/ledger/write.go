package ledger

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// Write is a batch of puts and deletes the ledger applies atomically,
// answered with *Written at ReplyTo once committed (nobody is told when
// ReplyTo is nil). Writes are sent without an envelope, so the ledger's
// priority mailbox can see which lane each is in; Request does that.
type Write struct {
	Ops []Op
	// Owner puts the write in the owner's lane: it is committed ahead of
	// agent-made writes waiting in the mailbox, at once, with whatever the
	// ledger already holds.
	Owner   bool
	ReplyTo *actor.PID
}

// Priorities of the two lanes in the ledger's mailbox.
const (
	agentLane = actor.DefaultPriority
	ownerLane = actor.DefaultPriority + 3
)

// GetPriority puts owner writes ahead of agent writes in the mailbox.
func (w *Write) GetPriority() int8 {
	if w.Owner {
		return ownerLane
	}
	return agentLane
}

// Op puts Value (JSON-encoded) at Key, or deletes Key when Delete is set.
// Its order stamps when it was made: an op older than one already committed
// for its key is stale and skipped, so a write that overtook another in the
// owner's lane is never overwritten by it.
type Op struct {
	Key    []byte
	Value  any
	Delete bool
	order  uint64
}

// orders stamps ops in the order they are made, process-wide.
var orders atomic.Uint64

// Put is an op that stores v at key.
func Put(key []byte, v any) Op { return Op{Key: key, Value: v, order: orders.Add(1)} }

// Delete is an op that removes key.
func Delete(key []byte) Op { return Op{Key: key, Delete: true, order: orders.Add(1)} }

// Written acknowledges a Write.
type Written struct{ Err error }

// Request sends w to the ledger at pid and returns the future of its
// acknowledgement, which fails after d.
// w itself is not changed: a copy is sent, so it may be sent again.
func Request(ctx actor.SenderContext, pid *actor.PID, w *Write, d time.Duration) *actor.Future {
	f := actor.NewFuture(ctx.ActorSystem(), d)
	c := *w
	c.ReplyTo = f.PID()
	ctx.Send(pid, &c)
	return f
}

// Check is the outcome of a Write request: the future's error, the
// ledger's own error, or an error for an answer that is not a Written.
func Check(res any, err error) error {
	if err != nil {
		return err
	}
	if w, ok := res.(*Written); ok {
		return w.Err
	}
	return fmt.Errorf("ledger: unexpected reply %T", res)
}
