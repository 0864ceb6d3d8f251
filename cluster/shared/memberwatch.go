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
	return watchPrefix(ctx, &listWatcher[Member]{s: s, prefix: s.membersKey, read: s.members, same: sameMember,
		fn: func(ms []Member, _ int64) { fn(ms) }})
}

func sameMember(a, b Member) bool {
	return a.ID == b.ID && a.Addr == b.Addr && a.Capacity == b.Capacity && a.Since.Equal(b.Since)
}

// listWatcher follows every key under prefix: after each change it reads
// the whole list again and calls fn with it and the revision it was read
// at; when it differs from the last one, or on every read when same is
// nil.
// Its state is owned by its goroutine (and by the caller of watchPrefix
// for the first read).
type listWatcher[T any] struct {
	s      *Store
	prefix string
	read   func(context.Context) ([]T, int64, error)
	same   func(a, b T) bool // nil: every list read is passed on
	fn     func([]T, int64)

	started bool
	last    []T
	rev     int64
}

// watchPrefix reads w's list once on the caller's goroutine, then follows
// it from one of its own.
func watchPrefix[T any](ctx context.Context, w *listWatcher[T]) error {
	var listed bool
	return w.s.startWatch(ctx, func(ctx context.Context) { listed = w.list(ctx) },
		func(ctx context.Context) { w.run(ctx, listed) })
}

func (w *listWatcher[T]) run(ctx context.Context, listed bool) {
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

// follow watches the keys from after the last list and lists again on
// every change, until the watch fails or ctx ends.
func (w *listWatcher[T]) follow(ctx context.Context) {
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	wch := w.s.cli.Watch(clientv3.WithRequireLeader(fctx), w.prefix, clientv3.WithPrefix(), clientv3.WithRev(w.rev+1))
	for resp := range wch {
		if resp.Err() != nil || !w.list(ctx) {
			return
		}
	}
}

// list reads the list and calls fn if it changed; it reports whether etcd
// answered.
func (w *listWatcher[T]) list(ctx context.Context) bool {
	rctx, cancel := context.WithTimeout(ctx, probeTimeout)
	items, rev, err := w.read(rctx)
	cancel()
	if err != nil || ctx.Err() != nil {
		return false
	}
	w.rev = max(w.rev, rev)
	if w.started && w.same != nil && slices.EqualFunc(items, w.last, w.same) {
		return true
	}
	w.started, w.last = true, items
	w.fn(slices.Clone(items), rev)
	return true
}
