package grains

import (
	"sync"

	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/remote"
)

// losses tells the requests waiting on another member's activation when
// that member is lost: its endpoint terminated (the connection broke and
// did not come back) or it left the topology. Without it a request to a
// member killed mid-call would wait out its whole deadline, since
// protoactor answers no future whose target's process died.
type losses struct {
	mu      sync.Mutex
	waiting map[string]map[chan struct{}]struct{} // by member address
	down    map[string]bool                       // endpoints terminated and not connected since
}

// isDown reports whether the endpoint at addr terminated and has not
// connected since: a message sent there now is not delivered.
func (l *losses) isDown(addr string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.down[addr]
}

func (l *losses) setDown(addr string, down bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !down {
		delete(l.down, addr)
		return
	}
	if l.down == nil {
		l.down = map[string]bool{}
	}
	l.down[addr] = true
}

// watch returns a channel closed when the member at addr is lost, and
// the function that stops watching.
func (l *losses) watch(addr string) (<-chan struct{}, func()) {
	ch := make(chan struct{})
	l.mu.Lock()
	if l.waiting == nil {
		l.waiting = map[string]map[chan struct{}]struct{}{}
	}
	if l.waiting[addr] == nil {
		l.waiting[addr] = map[chan struct{}]struct{}{}
	}
	l.waiting[addr][ch] = struct{}{}
	l.mu.Unlock()
	return ch, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if w := l.waiting[addr]; w != nil {
			delete(w, ch)
			if len(w) == 0 {
				delete(l.waiting, addr)
			}
		}
	}
}

// lost closes every channel watching addr.
func (l *losses) lost(addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for ch := range l.waiting[addr] {
		close(ch)
	}
	delete(l.waiting, addr)
}

// follow reads the events of the member's actor system.
func (l *losses) follow(ev any) {
	switch e := ev.(type) {
	case *remote.EndpointTerminatedEvent:
		l.setDown(e.Address, true)
		l.lost(e.Address)
	case *remote.EndpointConnectedEvent:
		l.setDown(e.Address, false)
	case *cluster.ClusterTopology:
		for _, left := range e.Left {
			l.lost(left.Address())
		}
		for _, joined := range e.Joined {
			l.setDown(joined.Address(), false) // a member back at an address it had
		}
	}
}
