package grains

import (
	"sync"
	"time"
)

// maxNonces bounds the nonces a member remembers at once: about 17,000
// envelopes a second over the minute each is valid. Past it, messages are
// refused until the oldest expire, rather than forgotten early (which
// would let a copy through).
const maxNonces = 1 << 20

// spendResult is what spending a nonce found.
type spendResult int

const (
	fresh         spendResult = iota // first time: taken
	replayedFirst                    // the first copy sent again: refused, to be logged
	replayedAgain                    // a later copy: refused, already logged
	noncesFull                       // no room to remember it: refused
)

// nonces remembers every nonce taken until its envelope's window ends,
// bounded by a count; expired ones are dropped, oldest taken first.
type nonces struct {
	mu    sync.Mutex
	max   int
	seen  map[[nonceSize]byte]*spent
	order [][nonceSize]byte // in the order taken; a FIFO with head
	head  int
}

type spent struct {
	until  time.Time
	logged bool
}

func newNonces(limit int) *nonces {
	return &nonces{max: limit, seen: map[[nonceSize]byte]*spent{}}
}

// spend takes n, valid until until, at now.
func (s *nonces) spend(n [nonceSize]byte, until, now time.Time) spendResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire(now)
	if e, ok := s.seen[n]; ok {
		if e.logged {
			return replayedAgain
		}
		e.logged = true
		return replayedFirst
	}
	if len(s.seen) >= s.max {
		return noncesFull
	}
	s.seen[n] = &spent{until: until}
	s.order = append(s.order, n)
	return fresh
}

// expire drops the nonces at the front whose windows have ended. One
// later in the order may end sooner (senders' clocks differ); it stays a
// little longer, which refuses nothing that would have been taken.
func (s *nonces) expire(now time.Time) {
	for s.head < len(s.order) {
		n := s.order[s.head]
		if e, ok := s.seen[n]; ok && now.Before(e.until) {
			break
		}
		delete(s.seen, n)
		s.head++
	}
	if s.head > 1024 && s.head*2 > len(s.order) {
		s.order = append([][nonceSize]byte(nil), s.order[s.head:]...)
		s.head = 0
	}
}
