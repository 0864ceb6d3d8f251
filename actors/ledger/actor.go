package ledger

import (
	"fmt"
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/cockroachdb/pebble/v2"

	"github.com/buddi-dev/buddi/messages"
)

// Actor is the only writer of the Store.
type Actor struct {
	store *Store
	log   *slog.Logger
}

// NewActor returns the ledger actor over an opened store. The store outlives
// the actor (a restart of its supervisor restarts it over the same store);
// whoever opened the store closes it once the actor system has stopped.
func NewActor(store *Store, log *slog.Logger) *Actor {
	return &Actor{store: store, log: log}
}

// Receive applies writes in mailbox order.
func (a *Actor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *messages.LedgerWrite:
		err := a.apply(m)
		if err != nil {
			a.log.Error("ledger write failed", "err", err)
		}
		if ctx.Sender() != nil {
			ctx.Respond(&messages.LedgerWritten{Err: err})
		}
	}
}

func (a *Actor) apply(w *messages.LedgerWrite) error {
	b := a.store.db.NewBatch()
	defer b.Close()
	for _, op := range w.Ops {
		if op.Delete {
			if err := b.Delete(op.Key, nil); err != nil {
				return fmt.Errorf("ledger: delete %s: %w", op.Key, err)
			}
			continue
		}
		v, err := encode(op.Value)
		if err != nil {
			return fmt.Errorf("ledger: encode %s: %w", op.Key, err)
		}
		if err := b.Set(op.Key, v, nil); err != nil {
			return fmt.Errorf("ledger: put %s: %w", op.Key, err)
		}
	}
	opts := pebble.Sync
	if w.NoSync {
		opts = pebble.NoSync
	}
	return a.store.db.Apply(b, opts)
}

// Put is an op that stores v at key.
func Put(key []byte, v any) messages.LedgerOp { return messages.LedgerOp{Key: key, Value: v} }

// Delete is an op that removes key.
func Delete(key []byte) messages.LedgerOp { return messages.LedgerOp{Key: key, Delete: true} }

// Written is the outcome of a LedgerWrite request: the future's error, the
// ledger's own error, or an error for an answer that is not a LedgerWritten.
func Written(res any, err error) error {
	if err != nil {
		return err
	}
	if w, ok := res.(*messages.LedgerWritten); ok {
		return w.Err
	}
	return fmt.Errorf("ledger: unexpected reply %T", res)
}
