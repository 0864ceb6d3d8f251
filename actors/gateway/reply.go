package gateway

import (
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// replies is the one process every call of a gateway is answered through:
// a call sends with a sender PID of its own request id and waits on its own
// slot, so no process is registered and no future made per call. protoactor
// carries a PID's request id to the answer, across members too.
//
// A slot is owned by whoever takes it out of wait: the answer's sender,
// which then hands it exactly one answer, or the caller giving up at its
// deadline, after which the answer, if one comes, goes to dead letters as
// a future's late answer does.
type replies struct {
	sys   *actor.ActorSystem
	self  *actor.PID // this process: Address and Id of every sender PID
	mu    sync.Mutex
	next  uint32
	wait  map[uint32]*slot
	slots sync.Pool
}

// slot is one waiting call's: where its answer lands and its deadline.
type slot struct {
	answer chan answer
	timer  *time.Timer
}

type answer struct {
	res any
	err error
}

var _ actor.Process = (*replies)(nil)

// newReplies registers the replies process of a gateway in sys.
func newReplies(sys *actor.ActorSystem) *replies {
	r := &replies{sys: sys, wait: map[uint32]*slot{}}
	r.slots.New = func() any { return &slot{answer: make(chan answer, 1)} }
	r.self, _ = sys.ProcessRegistry.Add(r, "gateway"+sys.ProcessRegistry.NextId())
	return r
}

// ask sends msg to pid and waits d at most for its answer: the answer's
// message, or ErrDeadLetter when pid is gone, or ErrTimeout.
func (r *replies) ask(pid *actor.PID, msg any, d time.Duration) (any, error) {
	s := r.slots.Get().(*slot)
	id := r.hold(s)
	r.sys.Root.RequestWithCustomSender(pid, msg, &actor.PID{Address: r.self.Address, Id: r.self.Id, RequestId: id})
	if s.timer == nil {
		s.timer = time.NewTimer(d)
	} else {
		s.timer.Reset(d)
	}
	var a answer
	select {
	case a = <-s.answer:
		s.timer.Stop()
	case <-s.timer.C:
		if r.take(id) != nil {
			a.err = actor.ErrTimeout
			break
		}
		a = <-s.answer // taken by an answer that is being handed over
	}
	r.slots.Put(s)
	return a.res, a.err
}

// hold enters s under a request id no waiting call has.
func (r *replies) hold(s *slot) uint32 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	for r.next == 0 || r.wait[r.next] != nil { // 0 is no request id
		r.next++
	}
	r.wait[r.next] = s
	return r.next
}

// take removes the slot of request id and returns it, or nil when its
// call already has its answer or gave up.
func (r *replies) take(id uint32) *slot {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.wait[id]
	delete(r.wait, id)
	return s
}

// SendUserMessage hands an answer to the call whose request id pid has.
func (r *replies) SendUserMessage(pid *actor.PID, message any) {
	_, msg, _ := actor.UnwrapEnvelope(message)
	s := r.take(pid.RequestId)
	if s == nil {
		r.sys.DeadLetter.SendUserMessage(pid, message)
		return
	}
	if _, gone := msg.(*actor.DeadLetterResponse); gone {
		s.answer <- answer{err: actor.ErrDeadLetter}
		return
	}
	s.answer <- answer{res: msg}
}

// SendSystemMessage answers as a future does: with the message.
func (r *replies) SendSystemMessage(pid *actor.PID, message any) {
	r.SendUserMessage(pid, message)
}

// Stop does nothing: the process lives as long as its actor system.
func (r *replies) Stop(*actor.PID) {}
