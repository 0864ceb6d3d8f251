package ledger

import (
	"bytes"

	"github.com/cockroachdb/pebble/v2"
)

// MaxRefusals is how many refusal records the ledger keeps. A commit that
// takes the record past it deletes the oldest (refusal keys sort by time),
// whoever wrote them: the bound holds for every writer of the record.
const MaxRefusals = 1000

// refusals tracks how many refusal records the store holds; the count is
// read from the store the first time a commit adds one, then kept.
type refusals struct {
	n       int
	counted bool
}

// trim deletes the oldest refusal records past MaxRefusals after a commit
// that added added of them. The delete is not synced: a crash before it
// lands leaves a few records more, which the next commit trims.
func (a *Actor) trim(added int) {
	if added == 0 {
		return
	}
	if !a.refs.counted {
		a.refs.n, a.refs.counted = a.countRefusals(), true
	} else {
		a.refs.n += added
	}
	if a.refs.n <= MaxRefusals {
		return
	}
	it, err := a.store.db.NewIter(&pebble.IterOptions{LowerBound: []byte(prefixRefusal), UpperBound: upperBound(prefixRefusal)})
	if err != nil {
		a.log.Error("ledger: trimming the refusal record failed", "err", err)
		return
	}
	b := a.store.db.NewBatch()
	excess := a.refs.n - MaxRefusals
	for it.First(); it.Valid() && excess > 0; it.Next() {
		_ = b.Delete(bytes.Clone(it.Key()), nil)
		excess--
	}
	_ = it.Close()
	if err := a.store.db.Apply(b, pebble.NoSync); err != nil {
		a.log.Error("ledger: trimming the refusal record failed", "err", err)
	} else {
		a.refs.n = MaxRefusals + excess
	}
	_ = b.Close()
}

func (a *Actor) countRefusals() int {
	n := 0
	_ = a.store.each(prefixRefusal, func([]byte) error { n++; return nil })
	return n
}
