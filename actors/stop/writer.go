package stop

import (
	"context"
	"errors"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/ledger"
)

// Shared is the Stop flag every member of a cluster shares, kept in etcd
// (cluster/shared.Store); nil on a single host.
type Shared interface {
	// SetStop returns once etcd has committed the flag.
	SetStop(ctx context.Context, stopped bool, at time.Time) (int64, error)
}

// Bounds of the writer's attempts.
const (
	attemptWait = 5 * time.Second       // one ledger write
	sharedWait  = 10 * time.Second      // one etcd write
	retryFirst  = 50 * time.Millisecond // first pause between attempts
	retryMax    = 2 * time.Second       // longest pause between attempts
)

// record is a decision to make durable; toShared when etcd must have it too
// (a decision made here, in a cluster).
type record struct {
	gen      uint64
	stop     ledger.Stop
	toShared bool
}

// landed and failed are the writer's reports, in the actor's mailbox: where
// record gen landed (the ledger, or etcd), or why an attempt did not.
type (
	landed struct {
		gen    uint64
		shared bool
		rev    int64 // etcd's revision of the write
	}
	failed struct {
		gen    uint64
		shared bool
		err    error
	}
)

// writer makes the latest decision durable: the ledger first (synced, in
// the owner's lane), then etcd, retrying until it lands or a newer record
// replaces it. It runs on one goroutine; put never blocks.
type writer struct {
	next   chan record // holds at most the latest record not taken yet
	done   chan struct{}
	ledger *actor.PID
	shared Shared
}

func newWriter(led *actor.PID, shared Shared) *writer {
	return &writer{next: make(chan record, 1), done: make(chan struct{}), ledger: led, shared: shared}
}

// put replaces the record waiting to be written. Only the actor calls it,
// so emptying the slot and filling it again cannot block.
func (w *writer) put(r record) {
	select {
	case <-w.next:
	default:
	}
	w.next <- r
}

// run writes records until stop, telling self what landed and what failed.
func (w *writer) run(root *actor.RootContext, self *actor.PID) {
	for {
		select {
		case r := <-w.next:
			for ok := true; ok; {
				r, ok = w.land(root, self, r)
			}
		case <-w.done:
			return
		}
	}
}

// land writes r until it is durable where it must be; a newer record that
// arrives meanwhile is returned, with true, to be written instead.
func (w *writer) land(root *actor.RootContext, self *actor.PID, r record) (record, bool) {
	pause, inLedger := retryFirst, false
	for {
		if !inLedger {
			err := ledger.Check(ledger.Request(root, w.ledger, &ledger.Write{Owner: true,
				Ops: []ledger.Op{ledger.Put(ledger.StopKey(), r.stop)}}, attemptWait).Result())
			if errors.Is(err, actor.ErrDeadLetter) {
				return r, false // the ledger is gone: buddi is stopping
			}
			inLedger = w.report(root, self, &landed{gen: r.gen}, err)
		}
		if inLedger && r.toShared {
			c, cancel := context.WithTimeout(context.Background(), sharedWait)
			rev, err := w.shared.SetStop(c, r.stop.Stopped, r.stop.At)
			cancel()
			r.toShared = !w.report(root, self, &landed{gen: r.gen, shared: true, rev: rev}, err)
		}
		if inLedger && !r.toShared {
			return r, false
		}
		select {
		case n := <-w.next:
			return n, true
		case <-w.done:
			return r, false
		case <-time.After(pause):
			pause = min(2*pause, retryMax)
		}
	}
}

// report tells self how an attempt went (l, or why it failed), and
// whether it landed.
func (w *writer) report(root *actor.RootContext, self *actor.PID, l *landed, err error) bool {
	if err != nil {
		root.Send(self, &failed{gen: l.gen, shared: l.shared, err: err})
		return false
	}
	root.Send(self, l)
	return true
}
