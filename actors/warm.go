package actors

import (
	"sync"
	"sync/atomic"
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
// now, or to a new one. Goroutines that stayed idle through a whole sweep
// (between idleFor and twice that) end, so a burst leaves nothing behind.
// An idle goroutine waits on a plain receive, with no timer of its own to
// arm and no select: the sweeper that ends the spare ones is one goroutine
// for all of them, and it ends too once none is left.
type Warm struct {
	jobs       chan job // a job of a nil func ends the goroutine that takes it
	throughput int
	idleFor    time.Duration
	live       atomic.Int64 // goroutines started and not ended
	idle       atomic.Int64 // of them, waiting for a func now
	spare      atomic.Int64 // the fewest idle at once since the last sweep
	sweeping   atomic.Bool
}

// job is a func a Warm runs and, when done is set, the group it tells
// once the func returned: counted work needs no func of its own around f,
// which was an allocation per act.
type job struct {
	fn   func()
	done *sync.WaitGroup
}

// warmIdle is about how long a goroutine of a Warm waits for its next func.
const warmIdle = 5 * time.Second

// mailboxThroughput is how many messages a mailbox runs before it lets its
// goroutine go: the library's default.
const mailboxThroughput = 300

// Dispatcher runs the mailboxes of the actors on the agent's hot path
// (sessions, the controller, the ledger) and the work sessions run off them.
var Dispatcher = NewWarm(mailboxThroughput)

var _ actor.Dispatcher = (*Warm)(nil)

// NewWarm returns a Warm whose mailboxes run throughput messages at a time.
func NewWarm(throughput int) *Warm { return newWarm(throughput, warmIdle) }

func newWarm(throughput int, idleFor time.Duration) *Warm {
	return &Warm{jobs: make(chan job), throughput: throughput, idleFor: idleFor}
}

// Schedule runs fn on an idle goroutine, or on a new one if none is idle.
func (w *Warm) Schedule(fn func()) { w.schedule(job{fn: fn}) }

// Counted runs fn as Schedule does, then tells done (whose Add the
// caller made).
func (w *Warm) Counted(fn func(), done *sync.WaitGroup) { w.schedule(job{fn: fn, done: done}) }

func (w *Warm) schedule(j job) {
	select {
	case w.jobs <- j:
	default:
		w.live.Add(1)
		go w.work(j)
		if w.sweeping.CompareAndSwap(false, true) {
			go w.sweep()
		}
	}
}

// Throughput is how many messages a mailbox runs per Schedule.
func (w *Warm) Throughput() int { return w.throughput }

// work runs j, then whatever else is scheduled, until the sweeper hands
// it the job of a nil func that ends it.
func (w *Warm) work(j job) {
	defer w.live.Add(-1)
	for j.fn != nil {
		j.fn()
		if j.done != nil {
			j.done.Done()
		}
		w.idle.Add(1)
		j = <-w.jobs
		if n := w.idle.Add(-1); n < w.spare.Load() {
			w.spare.Store(n) // a race here only ends one goroutine too few or too many
		}
	}
}

// sweep ends, every idleFor, as many goroutines as stayed idle all the
// while (no burst needed them), and ends itself once none is left.
func (w *Warm) sweep() {
	t := time.NewTicker(w.idleFor)
	defer t.Stop()
	w.spare.Store(w.idle.Load())
	for {
		<-t.C
		for n := w.spare.Swap(w.idle.Load()); n > 0; n-- {
			select {
			case w.jobs <- job{}:
			default:
				n = 0 // all busy again
			}
		}
		if w.live.Load() == 0 {
			w.sweeping.Store(false)
			// A goroutine started after the look found no sweeper running
			// only if it raced this Store; take the sweep back then.
			if w.live.Load() == 0 || !w.sweeping.CompareAndSwap(false, true) {
				return
			}
		}
	}
}
