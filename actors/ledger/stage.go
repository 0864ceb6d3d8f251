package ledger

import (
	"bytes"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// stage is the batch the ledger builds until its next commit, and the
// writes waiting on it.
type stage struct {
	b       *pebble.Batch
	waiting []*Write
	counted int               // step counters it holds (Store.SetSteps)
	orders  map[string]uint64 // the newest op staged per key
	refused int               // refusal records it adds
	deleted int               // deletes it holds
	keep    []staged          // add's own, kept across writes
}

// staged is one op add keeps, its value's stored form in the encoder's
// buffer.
type staged struct {
	op         Op
	start, end int
}

// newStage is an empty stage on a new batch of db, made of spare (a
// committed stage, whose map and slices it keeps) when not nil.
func newStage(db *pebble.DB, spare *stage) *stage {
	if spare == nil {
		return &stage{b: db.NewBatch(), orders: map[string]uint64{}}
	}
	clear(spare.orders)
	clear(spare.waiting)
	*spare = stage{b: db.NewBatch(), orders: spare.orders, waiting: spare.waiting[:0], keep: spare.keep[:0]}
	return spare
}

// add stages w's ops that are newer than committed (last) and staged ones,
// their values encoded with e. An op that cannot be encoded refuses the
// whole write, and only it.
func (s *stage) add(w *Write, last *committedOrders, e *encoder) error {
	if _, err := s.stageOps(w.Ops, last, e); err != nil {
		return err
	}
	s.waiting = append(s.waiting, w)
	return nil
}

// addCounter stages a step counter (Store.SetSteps) unless it is stale.
func (s *stage) addCounter(op Op, last *committedOrders, e *encoder) error {
	n, err := s.stageOps([]Op{op}, last, e)
	s.counted += n
	return err
}

// stageOps puts the ops that are not stale in the batch, all or none, and
// says how many it put.
func (s *stage) stageOps(ops []Op, last *committedOrders, e *encoder) (int, error) {
	e.reset()
	keep := s.keep[:0]
	defer func() { clear(keep); s.keep = keep[:0] }()
	for _, op := range ops {
		if s.stale(op, last) {
			continue
		}
		k := staged{op: op}
		if !op.Delete {
			var err error
			if k.start, k.end, err = e.add(op.Value); err != nil {
				return 0, fmt.Errorf("ledger: encode %s: %w", op.Key, err)
			}
		}
		keep = append(keep, k)
	}
	values := e.buf.Bytes()
	for _, k := range keep {
		if err := s.put(k.op, values[k.start:k.end]); err != nil {
			return 0, err
		}
		if k.op.order != 0 {
			s.orders[string(k.op.Key)] = k.op.order
		}
	}
	return len(keep), nil
}

// stale says a newer op for op's key was committed (last) or staged.
func (s *stage) stale(op Op, last *committedOrders) bool {
	return op.order != 0 && (op.order <= last.get(string(op.Key)) || op.order <= s.orders[string(op.Key)])
}

func (s *stage) put(op Op, v []byte) error {
	if op.Delete {
		if err := s.b.Delete(op.Key, nil); err != nil {
			return fmt.Errorf("ledger: delete %s: %w", op.Key, err)
		}
		s.deleted++
		return nil
	}
	if err := s.b.Set(op.Key, v, nil); err != nil {
		return fmt.Errorf("ledger: put %s: %w", op.Key, err)
	}
	if bytes.HasPrefix(op.Key, []byte(prefixRefusal)) {
		s.refused++
	}
	return nil
}

// committed folds the staged orders into last, once the batch is durable.
func (s *stage) committed(last *committedOrders) {
	for k, o := range s.orders {
		last.put(k, o)
	}
}
