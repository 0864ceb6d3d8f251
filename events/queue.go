package events

import "github.com/buddi-dev/buddi/messages"

// queue is a FIFO of events where an event replaces the waiting one with
// the same key, in its place.
type queue struct {
	items []keyed // items[head:] wait, oldest first
	head  int
	at    map[messages.EventKey]int // key → index in items
}

// keyed is a waiting event with its key, made once when it was put.
type keyed struct {
	e messages.Event
	k messages.EventKey
}

func newQueue() queue { return queue{at: map[messages.EventKey]int{}} }

func (q *queue) len() int { return len(q.at) }

// put adds e, replacing a waiting event with its key. When the queue holds
// limit events already it drops the oldest and reports true.
func (q *queue) put(e messages.Event, limit int) (dropped bool) {
	k := e.Key()
	if i, ok := q.at[k]; ok {
		q.items[i].e = e
		return false
	}
	if len(q.at) >= limit {
		q.take()
		dropped = true
	}
	q.at[k] = len(q.items)
	q.items = append(q.items, keyed{e, k})
	return dropped
}

// take removes and returns the oldest event.
func (q *queue) take() (messages.Event, bool) {
	if q.head >= len(q.items) {
		return nil, false
	}
	it := q.items[q.head]
	q.items[q.head] = keyed{}
	q.head++
	delete(q.at, it.k)
	q.compact()
	return it.e, true
}

// takeAll removes and returns every waiting event, oldest first.
func (q *queue) takeAll() []messages.Event {
	out := make([]messages.Event, 0, len(q.items)-q.head)
	for _, it := range q.items[q.head:] {
		out = append(out, it.e)
	}
	*q = newQueue()
	return out
}

// compact reclaims the space before head once it is most of the slice.
func (q *queue) compact() {
	if q.head < 64 || q.head*2 < len(q.items) {
		return
	}
	shift := q.head
	n := copy(q.items, q.items[shift:])
	clear(q.items[n:])
	q.items = q.items[:n]
	q.head = 0
	for k, i := range q.at {
		q.at[k] = i - shift
	}
}
