package stop

import (
	"sync/atomic"

	"github.com/buddi-dev/buddi/actors/ledger"
)

// View is the Stop as last decided, and what the member knows of the
// cluster's etcd.
type View struct {
	Stop ledger.Stop
	// Gen is the decision's generation: one more with every decision since
	// buddi started (0: the ledger's, as it was at the start).
	Gen uint64
	// Cluster is set on a member of a cluster; Heard once its watch of
	// etcd spoke, and Down says why etcd cannot be reached ("" when it can).
	Cluster bool
	Heard   bool
	Down    string
}

// Unreachable says why a member of a cluster cannot count on etcd now
// (its watch has not spoken yet, or etcd is away), or "" when it can.
func (v View) Unreachable() string {
	switch {
	case !v.Heard:
		return "it has not heard from etcd yet"
	case v.Down != "":
		return v.Down
	}
	return ""
}

// Board shows the View the actor last decided, to readers that must not
// wait on it (the controller at its start, the desktop lock). Only the
// actor writes it.
type Board struct{ v atomic.Pointer[View] }

// Open makes the Board of a start: the Stop as the ledger holds it; in a
// cluster, not heard from etcd yet.
func Open(store *ledger.Store, cluster bool) (*Board, error) {
	s, err := store.Stop()
	if err != nil {
		return nil, err
	}
	return NewBoard(View{Stop: s, Cluster: cluster}), nil
}

// Load is the View now.
func (b *Board) Load() View { return *b.v.Load() }

func (b *Board) show(v View) { b.v.Store(&v) }

// NewBoard is a Board showing v, for a controller tested without the actor.
func NewBoard(v View) *Board {
	b := &Board{}
	b.show(v)
	return b
}
