// Package journal keeps what the dashboard's conversation view shows of
// each recent conversation: its steps, site requests and task changes, and
// its session's last snapshot, which stays after the session ends so the
// Browser tab can become ordinary history with its last screenshot. It is
// fed by the actors' events and kept in memory only: screenshots are
// ephemeral, and a restart starts the history afresh.
//
// Its subscription is passive: it records the snapshots a watching
// dashboard causes to be taken, and causes none itself.
//
// Concurrency: one goroutine, started by Start, consumes the subscription
// and updates the journal under its mutex; readers take the mutex briefly
// and get copies. Close ends the subscription and waits for the goroutine.
package journal

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// Bounds of what is kept.
const (
	MaxEntries       = 300 // per conversation, the oldest dropped first
	MaxConversations = 200 // the least recently active dropped first
	queueSize        = 4096
)

// Source is where the events come from: the actors' client.
type Source interface {
	Subscribe(f events.Filter) *events.Subscription
}

// Journal is the recent history of conversations.
type Journal struct {
	sub     *events.Subscription
	done    chan struct{}
	updated chan struct{}

	mu    sync.Mutex
	convs map[string]*conv
	moved map[string]string // an id that moved, to the id it moved to
	// ended and live hold the kept conversations, each newest first:
	// eviction takes the oldest ended one, else the oldest live one.
	ended, live recency
}

type conv struct {
	id      string
	agent   string
	live    bool
	last    time.Time
	entries []entry
	snap    *messages.Snapshot

	prev, next *conv    // its neighbours in ended or live
	in         *recency // which of them holds it
}

// Start subscribes to src and keeps the journal until Close.
func Start(src Source) *Journal {
	j := &Journal{sub: src.Subscribe(events.Filter{Passive: true, Size: queueSize}),
		done: make(chan struct{}), updated: make(chan struct{}, 1), convs: map[string]*conv{}, moved: map[string]string{}}
	j.ended.init()
	j.live.init()
	go j.run()
	return j
}

// Close stops recording and waits for the recorder to end.
func (j *Journal) Close() {
	j.sub.Close()
	<-j.done
}

// Updated has a value after the journal took in new events.
func (j *Journal) Updated() <-chan struct{} { return j.updated }

func (j *Journal) run() {
	defer close(j.done)
	for {
		ev, err := j.sub.Next(context.Background())
		if err != nil {
			return
		}
		j.mu.Lock()
		j.apply(ev)
		j.mu.Unlock()
		select {
		case j.updated <- struct{}{}:
		default:
		}
	}
}

// Timeline is conv's history; false when the journal has none.
func (j *Journal) Timeline(id string) (*messages.Timeline, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	c := j.convs[id]
	if c == nil {
		if to := j.movedTo(id); to != "" {
			return &messages.Timeline{Conversation: id, MovedTo: to, Entries: []messages.TimelineEntry{}}, true
		}
		return nil, false
	}
	return &messages.Timeline{Conversation: id, Agent: c.agent, Live: c.live,
		Entries: c.recent(), Snapshot: c.snap}, true
}

// Snapshot is conv's last snapshot, or nil.
func (j *Journal) Snapshot(id string) *messages.Snapshot {
	j.mu.Lock()
	defer j.mu.Unlock()
	if c := j.convs[id]; c != nil {
		return c.snap
	}
	return nil
}

// Conversations lists the recent conversations, newest first.
func (j *Journal) Conversations() messages.ConversationList {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make(messages.ConversationList, 0, len(j.convs))
	for id, c := range j.convs {
		out = append(out, messages.ConversationView{Conversation: id, Agent: c.agent, Live: c.live, Last: c.last})
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Last.After(out[b].Last) })
	return out
}

// movedTo is the id a conversation that moved lives under now (following a
// chain of moves), or "" when id did not move.
func (j *Journal) movedTo(id string) string {
	to := ""
	for range MaxConversations { // a chain is never longer than what is kept
		next, ok := j.moved[id]
		if !ok {
			break
		}
		to, id = next, next
	}
	return to
}
