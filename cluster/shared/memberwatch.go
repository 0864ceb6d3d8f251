package shared

import (
	"context"
	"slices"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// WatchMembers lists the members and calls fn with the list before it
// returns (unless etcd does not answer then), and again, from a goroutine
// of its own, each time a member joins, leaves, is lost or changes its
// capacity. While etcd is away fn is not called; the list is read afresh
// once etcd answers. It ends when ctx is cancelled or the Store is closed.
// fn runs on one goroutine at a time and must not block for long or call
// Close.
func (s *Store) WatchMembers(ctx context.Context, fn func([]Member)) error {
	w := &memberWatcher{s: s, fn: fn}
	var listed bool
	return s.startWatch(ctx, func(ctx context.Context) { listed = w.list(ctx) },
		func(ctx context.Context) { w.run(ctx, listed) })
}

// memberWatcher is one WatchMembers' state, owned by its goroutine.
type memberWatcher struct {
	s       *Store
	fn      func([]Member)
	started bool
	last    []Member
	rev     int64
}

func (w *memberWatcher) run(ctx context.Context, listed bool) {
	for ctx.Err() == nil {
		if listed {
			w.follow(ctx)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(probeEvery):
		}
		listed = w.list(ctx)
	}
}

// follow watches the members' keys from after the last list and lists
// again on every change, until the watch fails or ctx ends.
func (w *memberWatcher) follow(ctx context.Context) {
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	wch := w.s.cli.Watch(clientv3.WithRequireLeader(fctx), w.s.membersKey, clientv3.WithPrefix(), clientv3.WithRev(w.rev+1))
	for resp := range wch {
		if resp.Err() != nil || !w.list(ctx) {
			return
		}
	}
}

// list reads the members and calls fn if they changed; it reports whether
// etcd answered.
func (w *memberWatcher) list(ctx context.Context) bool {
	rctx, cancel := context.WithTimeout(ctx, probeTimeout)
	ms, rev, err := w.s.members(rctx)
	cancel()
	if err != nil || ctx.Err() != nil {
		return false
	}
	w.rev = max(w.rev, rev)
	if w.started && slices.EqualFunc(ms, w.last, sameMember) {
		return true
	}
	w.started, w.last = true, ms
	w.fn(slices.Clone(ms))
	return true
}

func sameMember(a, b Member) bool {
	return a.ID == b.ID && a.Addr == b.Addr && a.Capacity == b.Capacity && a.Since.Equal(b.Since)
}
