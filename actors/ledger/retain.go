package ledger

import (
	"bytes"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/cockroachdb/pebble/v2"
)

// Retention is how long the ledger keeps the records of a conversation
// whose task ended (or was refused): its task, session, step counter, once
// answers and Telegram binding, and entries of the refusal record. Keep of
// zero keeps them for good. What is not a conversation's (the Stop, the
// owner, agents, devices, the air-gap setting, sites approved always, the
// desktop lock) is never pruned.
type Retention struct {
	Keep time.Duration
	// Now is the clock records are aged by; nil is time.Now.
	Now func() time.Time
}

// Bounds of one pruning pass. A pass reads at most pruneScan records and
// deletes the records of at most that many conversations, so the mailbox
// never waits long behind it; a pass that ran into its bound sends itself
// the next one at once, behind whatever writes arrived meanwhile.
const (
	pruneScan = 256
	// pruneEveryMax is the longest pause between two pruning rounds.
	pruneEveryMax = time.Minute
	// lastLife is how long the order of a committed op is remembered:
	// long enough for any write still in flight (requests carry seconds
	// of deadline), short enough that the map does not grow with every
	// key ever written.
	lastLife = time.Minute
)

// OrderLife is how long the ledger remembers the order of a write it
// committed: a ledger nothing was written to for OrderLife and a pruning
// round forgets them all (the load test weighs the heap only then).
const OrderLife = lastLife

// prune is the marker of one pruning pass.
type prune struct{}

// every is the pause between two pruning rounds: a quarter of the
// retention, at most pruneEveryMax.
func (r Retention) every() time.Duration {
	return min(max(r.Keep/4, 10*time.Millisecond), pruneEveryMax)
}

func (r Retention) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// pruner is the ledger's pruning state: where the round goes on from.
type pruner struct {
	ret     Retention
	cursor  []byte // the task key the next pass starts after; nil starts a round
	moved   []byte // the moved note the next pass starts after; nil starts a round
	deleted int    // records deleted in this round so far
	timer   *time.Timer
}

// schedule sends the next pass to self after d.
func (p *pruner) schedule(sys *actor.ActorSystem, self *actor.PID, d time.Duration) {
	if p.ret.Keep <= 0 {
		return
	}
	p.timer = time.AfterFunc(d, func() { sys.Root.Send(self, &prune{}) })
}

func (p *pruner) stop() {
	if p.timer != nil {
		p.timer.Stop()
	}
}

// prunePass deletes the records of up to pruneScan ended conversations
// older than the retention, and refusals as old, then schedules the next
// pass. What is staged is committed first, so the pass judges what is
// durable and any later write lands after its deletes.
func (a *Actor) prunePass(ctx actor.Context) {
	a.commit(ctx)
	cutoff := a.pruner.ret.now().Add(-a.pruner.ret.Keep)
	b := a.store.db.NewBatch()
	defer b.Close()
	convs, more, err := a.store.expired(a.pruner.cursor, cutoff)
	if err == nil {
		for _, conv := range convs {
			err = a.deleteConversation(b, conv)
			if err != nil {
				break
			}
		}
	}
	var others int
	othersMore := false
	if err == nil {
		others, othersMore, err = a.expiredOthers(b, cutoff)
	}
	if err == nil && !b.Empty() {
		err = a.store.db.Apply(b, pebble.NoSync)
	}
	if err != nil {
		a.log.Error("ledger prune failed; it is tried again at the next round", "err", err)
		a.pruner.cursor, a.pruner.moved, more, othersMore = nil, nil, false, false
	}
	if err == nil && len(convs)+others > 0 {
		a.log.Debug("ledger pruned", "conversations", len(convs), "refusals and moves", others)
		a.pruner.deleted += len(convs) + others
	}
	if more || othersMore {
		if len(convs) > 0 {
			a.pruner.cursor = TaskKey(convs[len(convs)-1])
		}
		ctx.Send(ctx.Self(), &prune{})
		return
	}
	// The round is over: give the space of what it deleted, and of what
	// writers deleted since the last round that compacted, back at once,
	// in the background, rather than when Pebble would get to it.
	if a.pruner.deleted > 0 || a.tombstones > 0 {
		a.store.compactSoon()
		a.tombstones = 0
	}
	a.pruner.cursor, a.pruner.moved, a.pruner.deleted = nil, nil, 0
	a.pruner.schedule(ctx.ActorSystem(), ctx.Self(), a.pruner.ret.every())
}

// deleteConversation adds to b the deletes of every record of conv, and
// forgets the orders of its keys.
func (a *Actor) deleteConversation(b *pebble.Batch, conv string) error {
	for _, k := range [][]byte{TaskKey(conv), SessionKey(conv), StepsKey(conv), BoundKey(conv)} {
		if err := b.Delete(k, nil); err != nil {
			return err
		}
		a.last.forget(k)
	}
	for _, p := range []string{prefixApproval + conv + "/", prefixApp + conv + "/"} {
		if err := b.DeleteRange([]byte(p), upperBound(p), nil); err != nil {
			return err
		}
	}
	return nil
}

// expired lists, in key order after cursor, the conversations whose task
// ended before cutoff and that hold no session; more says the scan stopped
// at its bound.
func (s *Store) expired(cursor []byte, cutoff time.Time) (convs []string, more bool, err error) {
	lower := []byte(prefixTask)
	if cursor != nil {
		lower = append(bytes.Clone(cursor), 0)
	}
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upperBound(prefixTask)})
	if err != nil {
		return nil, false, err
	}
	defer it.Close()
	scanned := 0
	for it.First(); it.Valid(); it.Next() {
		if scanned == pruneScan {
			return convs, true, it.Error()
		}
		scanned++
		var t Task
		if err := decode(it.Key(), it.Value(), &t); err != nil {
			return nil, false, err
		}
		if !t.endedBefore(cutoff) {
			continue
		}
		if _, live, err := s.Session(t.Conversation); err != nil || live {
			if err != nil {
				return nil, false, err
			}
			continue
		}
		convs = append(convs, t.Conversation)
	}
	return convs, false, it.Error()
}

// endedBefore reports whether t is finished and ended before cutoff. A
// task stored before tasks carried their end is aged by its latest stamp.
func (t Task) endedBefore(cutoff time.Time) bool {
	if t.State != TaskEnded && t.State != TaskRefused {
		return false
	}
	at := t.Ended
	if at.IsZero() {
		at = t.Created
		if t.Started.After(at) {
			at = t.Started
		}
	}
	return at.Before(cutoff)
}

// expiredRefusals adds to b the deletes of up to pruneScan refusals
// recorded before cutoff (their keys begin with the time, so the oldest
// come first) and returns how many.
func (s *Store) expiredRefusals(b *pebble.Batch, cutoff time.Time) (int, error) {
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: []byte(prefixRefusal), UpperBound: upperBound(prefixRefusal)})
	if err != nil {
		return 0, err
	}
	defer it.Close()
	n := 0
	for it.First(); it.Valid() && n < pruneScan; it.Next() {
		var r Refusal
		if err := decode(it.Key(), it.Value(), &r); err != nil {
			return n, err
		}
		if !r.At.Before(cutoff) {
			break
		}
		if err := b.Delete(it.Key(), nil); err != nil {
			return n, err
		}
		n++
	}
	return n, it.Error()
}

// expiredOthers adds to b the deletes of the refusals and move notes that
// expired (see expiredRefusals and expiredMoves) and returns how many;
// more says either scan stopped at its bound.
func (a *Actor) expiredOthers(b *pebble.Batch, cutoff time.Time) (n int, more bool, err error) {
	refused, err := a.store.expiredRefusals(b, cutoff)
	if err != nil {
		return 0, false, err
	}
	notes, more, err := a.expiredMoves(b, cutoff)
	return refused + notes, more || refused == pruneScan, err
}

// expiredMoves adds to b the deletes of the notes, among up to pruneScan
// after the pass's place, of moves made before cutoff whose new
// conversation has no live session and whose task ended before cutoff or
// was pruned already: nobody calls the old id of a finished conversation
// any more. more says the scan stopped at its bound.
func (a *Actor) expiredMoves(b *pebble.Batch, cutoff time.Time) (n int, more bool, err error) {
	lower := []byte(prefixMoved)
	if a.pruner.moved != nil {
		lower = append(bytes.Clone(a.pruner.moved), 0)
	}
	it, err := a.store.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upperBound(prefixMoved)})
	if err != nil {
		return 0, false, err
	}
	defer it.Close()
	a.pruner.moved = nil
	scanned := 0
	for it.First(); it.Valid(); it.Next() {
		if scanned == pruneScan {
			return n, true, it.Error()
		}
		scanned++
		a.pruner.moved = bytes.Clone(it.Key())
		var m Moved
		if err := decode(it.Key(), it.Value(), &m); err != nil {
			return n, false, err
		}
		if gone, err := a.store.finished(m, cutoff); err != nil || !gone {
			if err != nil {
				return n, false, err
			}
			continue
		}
		if err := b.Delete(it.Key(), nil); err != nil {
			return n, false, err
		}
		a.last.forget(it.Key())
		n++
	}
	a.pruner.moved = nil
	return n, false, it.Error()
}

// finished reports whether the move m is older than cutoff and its new
// conversation is over: no live session, and its task ended before cutoff
// or is gone.
func (s *Store) finished(m Moved, cutoff time.Time) (bool, error) {
	if !m.At.Before(cutoff) {
		return false, nil
	}
	if _, live, err := s.Session(m.To); err != nil || live {
		return false, err
	}
	t, found, err := s.Task(m.To)
	if err != nil {
		return false, err
	}
	return !found || t.endedBefore(cutoff), nil
}

// committedOrders remembers the order of the newest op committed per key, in two
// generations: an order is remembered for at least lastLife and at most
// twice that, so the map does not grow with every key ever written. Once
// nothing was committed for lastLife, every order it holds is older than
// that, and both generations go at once.
type committedOrders struct {
	cur, old map[string]uint64
	rotated  time.Time
	wrote    time.Time // when orders were last put
}

func newOrders() *committedOrders {
	now := time.Now()
	return &committedOrders{cur: map[string]uint64{}, old: map[string]uint64{}, rotated: now, wrote: now}
}

// get is the order committed for k, 0 when none is remembered.
func (o *committedOrders) get(k string) uint64 { return max(o.cur[k], o.old[k]) }

func (o *committedOrders) put(k string, order uint64) { o.cur[k] = max(o.get(k), order) }

// forget drops the order of k.
func (o *committedOrders) forget(k []byte) {
	delete(o.cur, string(k))
	delete(o.old, string(k))
}

// wroteAt records that orders were put at now.
func (o *committedOrders) wroteAt(now time.Time) { o.wrote = now }

// rotate forgets the generation older than lastLife, or both when nothing
// was put for lastLife. The maps are made anew, not emptied: a map keeps
// the room it once grew to.
func (o *committedOrders) rotate(now time.Time) {
	if now.Sub(o.rotated) < lastLife {
		return
	}
	o.rotated = now
	if now.Sub(o.wrote) >= lastLife && len(o.cur)+len(o.old) > 0 {
		o.old, o.cur = map[string]uint64{}, map[string]uint64{}
		return
	}
	o.old, o.cur = o.cur, map[string]uint64{}
}
