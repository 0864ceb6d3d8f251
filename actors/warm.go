package actors

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// Warm runs funcs on goroutines kept alive between them. The library's
// default dispatcher starts a new goroutine every time a mailbox gets work,
// and a goroutine starts with a small stack: an actor's Receive is deep
// enough that each of those goroutines grew (copied) its stack again, about
// a tenth of the CPU of an act. A warm goroutine keeps the stack it grew.
//
// Schedule never blocks and never queues: a func goes to a goroutine idle
// now, or to a new one. A goroutine idle for warmIdle ends, so a burst
// leaves nothing behind.
type Warm struct {
	jobs       chan func()
	throughput int
}

// warmIdle is how long a goroutine of a Warm waits for its next func.
const warmIdle = 5 * time.Second

// mailboxThroughput is how many messages a mailbox runs before it lets its
// goroutine go: the library's default.
const mailboxThroughput = 300

// Dispatcher runs the mailboxes of the actors on the agent's hot path
// (sessions, the controller, the ledger) and the work sessions run off them.
var Dispatcher = NewWarm(mailboxThroughput)

var _ actor.Dispatcher = (*Warm)(nil)

// NewWarm returns a Warm whose mailboxes run throughput messages at a time.
func NewWarm(throughput int) *Warm {
	return &Warm{jobs: make(chan func()), throughput: throughput}
}

// Schedule runs fn on an idle goroutine, or on a new one if none is idle.
func (w *Warm) Schedule(fn func()) {
	select {
	case w.jobs <- fn:
	default:
		go w.work(fn)
	}
}

// Throughput is how many messages a mailbox runs per Schedule.
func (w *Warm) Throughput() int { return w.throughput }

// work runs fn, then whatever else is scheduled, until it was idle for
// warmIdle.
func (w *Warm) work(fn func()) {
	fn()
	idle := time.NewTimer(warmIdle)
	defer idle.Stop()
	for {
		select {
		case fn := <-w.jobs:
			fn()
			idle.Reset(warmIdle)
		case <-idle.C:
			return
		}
	}
}
