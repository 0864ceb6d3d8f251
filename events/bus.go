package events

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// DefaultSize bounds a subscription's queue when Filter.Size is zero.
const DefaultSize = 1024

// Bus delivers published events to its subscriptions.
type Bus struct {
	mu   sync.Mutex // serialises changes of subs
	subs atomic.Pointer[[]*Subscription]
	// elsewhere is what is watched on other members of a cluster, and
	// until when (WatchElsewhere).
	elsewhere atomic.Pointer[watch]
}

type watch struct {
	kinds messages.EventKind
	until time.Time
}

// New returns a Bus with no subscribers.
func New() *Bus {
	b := &Bus{}
	b.subs.Store(&[]*Subscription{})
	return b
}

// Filter says which events a subscription wants.
type Filter struct {
	Kinds        messages.EventKind // zero means every kind
	Conversation string             // "" means every conversation
	Size         int                // queue bound; zero means DefaultSize
	// Passive subscriptions take what others' watching causes to be made
	// and do not count as watching themselves (see Watched): a record kept
	// in the background must not make every agent pay for snapshots.
	Passive bool
}

func (f Filter) wants(e messages.Event) bool {
	if f.Kinds != 0 && f.Kinds&e.Kind() == 0 {
		return false
	}
	about := e.About()
	return f.Conversation == "" || about == "" || about == f.Conversation
}

// Publish hands e to every subscription that wants it. It never blocks.
// A nil Bus drops every event.
func (b *Bus) Publish(e messages.Event) {
	if b == nil {
		return
	}
	for _, s := range *b.subs.Load() {
		if s.filter.wants(e) {
			s.push(e)
		}
	}
}

// Subscribe starts a subscription; Close ends it.
func (b *Bus) Subscribe(f Filter) *Subscription {
	if f.Size <= 0 {
		f.Size = DefaultSize
	}
	s := newSubscription(b, f)
	b.mu.Lock()
	defer b.mu.Unlock()
	old := *b.subs.Load()
	next := make([]*Subscription, len(old), len(old)+1)
	copy(next, old)
	next = append(next, s)
	b.subs.Store(&next)
	return s
}

func (b *Bus) remove(s *Subscription) {
	b.mu.Lock()
	defer b.mu.Unlock()
	old := *b.subs.Load()
	next := make([]*Subscription, 0, len(old))
	for _, o := range old {
		if o != s {
			next = append(next, o)
		}
	}
	b.subs.Store(&next)
}

// Active reports whether anyone subscribes: publishers may skip building
// events nobody would get.
func (b *Bus) Active() bool { return b != nil && len(*b.subs.Load()) > 0 }

// Watched reports whether a subscription that is not passive wants events
// of kind: publishers skip making costly events (a snapshot of the page)
// nobody watches.
func (b *Bus) Watched(kind messages.EventKind) bool {
	return b.WatchedElsewhere(kind) || b.WatchedHere(kind)
}

// WatchedHere is Watched without what other members watch.
func (b *Bus) WatchedHere(kind messages.EventKind) bool {
	if b == nil {
		return false
	}
	for _, s := range *b.subs.Load() {
		if !s.filter.Passive && (s.filter.Kinds == 0 || s.filter.Kinds&kind != 0) {
			return true
		}
	}
	return false
}

// WatchElsewhere says a watcher on another member of a cluster wants
// events of kinds until until, which the member relays to it: Watched
// counts it meanwhile. A later call extends what an earlier one said.
func (b *Bus) WatchElsewhere(kinds messages.EventKind, until time.Time) {
	for {
		old := b.elsewhere.Load()
		next := &watch{kinds: kinds, until: until}
		if old != nil && time.Now().Before(old.until) {
			next.kinds |= old.kinds
			if old.until.After(until) {
				next.until = old.until
			}
		}
		if b.elsewhere.CompareAndSwap(old, next) {
			return
		}
	}
}

// WatchedElsewhere reports whether a watcher on another member wants
// events of kind now.
func (b *Bus) WatchedElsewhere(kind messages.EventKind) bool {
	if b == nil {
		return false
	}
	w := b.elsewhere.Load()
	return w != nil && w.kinds&kind != 0 && time.Now().Before(w.until)
}

// Subscribers is how many subscriptions are open.
func (b *Bus) Subscribers() int { return len(*b.subs.Load()) }
