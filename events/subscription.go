package events

import (
	"context"
	"errors"
	"sync"

	"github.com/buddi-dev/buddi/messages"
)

// ErrClosed is what Next returns once the subscription is closed.
var ErrClosed = errors.New("events: subscription closed")

// Subscription is one subscriber's queue of events.
type Subscription struct {
	bus    *Bus
	filter Filter
	ready  chan struct{} // holds a token while the queue is not empty
	done   chan struct{} // closed by Close

	mu      sync.Mutex
	q       queue
	dropped uint64
	closed  bool
}

func newSubscription(b *Bus, f Filter) *Subscription {
	return &Subscription{bus: b, filter: f, ready: make(chan struct{}, 1),
		done: make(chan struct{}), q: newQueue()}
}

func (s *Subscription) push(e messages.Event) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	if s.q.put(e, s.filter.Size) {
		s.dropped++
	}
	s.mu.Unlock()
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

// Ready has a value while events wait; select on it, then Drain.
func (s *Subscription) Ready() <-chan struct{} { return s.ready }

// Drain takes every waiting event, oldest first.
func (s *Subscription) Drain() []messages.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.q.takeAll()
}

// Next waits for the oldest waiting event. It returns ctx's error when ctx
// ends first, and ErrClosed once the subscription is closed.
func (s *Subscription) Next(ctx context.Context) (messages.Event, error) {
	for {
		s.mu.Lock()
		e, ok := s.q.take()
		more := s.q.len() > 0
		closed := s.closed
		s.mu.Unlock()
		if ok {
			if more {
				select {
				case s.ready <- struct{}{}:
				default:
				}
			}
			return e, nil
		}
		if closed {
			return nil, ErrClosed
		}
		select {
		case <-s.ready:
		case <-s.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Dropped is how many events the queue dropped because it was full: when it
// grows, read the full state again.
func (s *Subscription) Dropped() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dropped
}

// Close ends the subscription; events still queued are discarded.
func (s *Subscription) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.q = newQueue()
	s.mu.Unlock()
	close(s.done)
	s.bus.remove(s)
}
