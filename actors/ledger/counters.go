package ledger

import "sync"

// counters are the step counters sessions set since the ledger's last
// commit, by key: the newest count of each, stamped with its order. A
// session sets its counter on every act and nobody waits on it, so it
// costs the act no message: the ledger takes the table whole into its next
// commit, which comes at most LazyWait after the table stopped being empty
// (sooner when another write commits first).
type counters struct {
	mu   sync.Mutex
	set  map[string]counter
	back map[string]counter // the table the last drain took, emptied, to use next
	// wake tells the ledger the table is no longer empty; nil while no
	// ledger runs over the store (the next one to start takes the table).
	wake func()
}

// counter is one session's step count and the order it was set in.
type counter struct {
	steps Steps
	order uint64
}

// SetSteps records that the conversation whose step counter is at key
// (StepsKey) used used steps. It is durable once the ledger's next commit
// is, at most LazyWait later; a read of the store sees it only then. An
// older count set meanwhile is replaced, and one older than a write the
// ledger committed for the key (a release's delete) is dropped.
func (s *Store) SetSteps(key string, used int) {
	c := &s.counters
	c.mu.Lock()
	if c.set == nil {
		c.set = map[string]counter{}
	}
	first := len(c.set) == 0
	c.set[key] = counter{steps: Steps{Used: used}, order: orders.Add(1)}
	wake := c.wake
	c.mu.Unlock()
	if first && wake != nil {
		wake()
	}
}

// wakeOnSteps makes f what SetSteps calls when the table stops being
// empty; nil stops it. It says whether the table holds counters now.
func (s *Store) wakeOnSteps(f func()) bool {
	c := &s.counters
	c.mu.Lock()
	defer c.mu.Unlock()
	c.wake = f
	return len(c.set) > 0
}

// drainSteps hands the counters set so far to f, one op each, and empties
// the table. f runs without the table's lock, so sessions go on setting.
func (s *Store) drainSteps(f func(Op)) {
	c := &s.counters
	c.mu.Lock()
	took := c.set
	c.set, c.back = c.back, nil
	c.mu.Unlock()
	for k, v := range took {
		f(Op{Key: []byte(k), Value: v.steps, order: v.order})
	}
	clear(took)
	c.mu.Lock()
	if c.back == nil {
		c.back = took
	}
	c.mu.Unlock()
}
