// Package limits bounds how fast one agent can make buddi do and keep
// things on its behalf: task requests it files for the owner, and refusal
// records its refused actions write. Each agent has its own token buckets
// (golang.org/x/time/rate), so one agent's flood never spends another's.
//
// Concurrency: Agents is safe for concurrent use: the controller and every
// session call it from their own goroutines. Its one mutex guards the map
// of buckets; a bucket is safe on its own.
package limits

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Rates of the buckets: a steady rate and a burst.
const (
	// TaskRequestEvery is the steady rate of an agent's task requests.
	TaskRequestEvery = 5 * time.Second
	// TaskRequestBurst is how many it may file at once.
	TaskRequestBurst = 8
	// RefusalEvery is the steady rate at which an agent's refusals are
	// recorded; refusals beyond it are answered but not recorded one by one.
	RefusalEvery = 2 * time.Second
	// RefusalBurst is how many refusals in a row are all recorded.
	RefusalBurst = 10
)

// Agents holds each agent's buckets, by agent ID.
type Agents struct {
	now func() time.Time
	mu  sync.Mutex
	by  map[string]*agent
}

type agent struct {
	tasks    *rate.Limiter
	refusals *rate.Limiter
}

// New returns empty limits; now is the clock (nil: time.Now).
func New(now func() time.Time) *Agents {
	if now == nil {
		now = time.Now
	}
	return &Agents{now: now, by: map[string]*agent{}}
}

func (a *Agents) of(id string) *agent {
	a.mu.Lock()
	defer a.mu.Unlock()
	ag := a.by[id]
	if ag == nil {
		ag = &agent{tasks: rate.NewLimiter(rate.Every(TaskRequestEvery), TaskRequestBurst),
			refusals: rate.NewLimiter(rate.Every(RefusalEvery), RefusalBurst)}
		a.by[id] = ag
	}
	return ag
}

// TaskRequest reports whether the agent may file a task request now, and
// spends one if so.
func (a *Agents) TaskRequest(id string) bool { return a.of(id).tasks.AllowN(a.now(), 1) }

// Refusal reports whether a refusal of the agent's is recorded now, and
// spends one if so.
func (a *Agents) Refusal(id string) bool { return a.of(id).refusals.AllowN(a.now(), 1) }

// Forget drops a removed agent's buckets.
func (a *Agents) Forget(id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.by, id)
}
