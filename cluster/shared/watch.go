package shared

import (
	"context"
	"errors"
	"sync"
	"time"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

const (
	// probeEvery is how often a Watch reads the flag to learn whether etcd
	// is still reachable (a watch stream alone stays silent when it is not).
	probeEvery = time.Second
	// probeTimeout bounds each of those reads.
	probeTimeout = time.Second
)

// Event is one thing a Watch learned about the Stop flag.
type Event struct {
	// Reachable is false when etcd could not be reached. State is then the
	// last state this host knew, which is no longer authority for anything.
	Reachable bool
	// State is the Stop flag as last read from etcd.
	State State
	// Err says why etcd is unreachable (*UnreachableError) or why the stored
	// value was not understood (*MalformedError); nil otherwise.
	Err error
}

// AllowsWork reports whether a host may accept new work on this event:
// only when etcd is reachable and no Stop is in force.
func (e Event) AllowsWork() bool { return e.Reachable && !e.State.Stopped }

// Watch reads the Stop flag and calls fn with what it found before it
// returns, so a host that joins late knows of a Stop before it accepts
// work; if etcd cannot be reached, that first event says so. Watch then
// follows every change from a goroutine of its own, calling fn once per
// change in commit order, with Reachable false when etcd stops answering
// (its watch fails or a read every second does not succeed within a
// second) and Reachable true, with the state read again, when it answers
// again. It ends when ctx is cancelled or the Store is closed. fn runs on
// one goroutine at a time and must not block for long or call Close.
func (s *Store) Watch(ctx context.Context, fn func(Event)) error {
	w := &watcher{s: s, fn: fn}
	return s.startWatch(ctx, func(ctx context.Context) { w.read(ctx) }, w.run)
}

// startWatch runs first on the caller's goroutine and then run on one of
// its own, both with a context that ends with ctx or when the Store
// closes; Close waits for run to return.
func (s *Store) startWatch(ctx context.Context, first, run func(context.Context)) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	s.watches.Add(1)
	s.mu.Unlock()

	wctx, cancel := context.WithCancel(ctx)
	unhook := context.AfterFunc(s.life, cancel)
	first(wctx)
	go func() {
		defer s.watches.Done()
		defer cancel()
		defer unhook()
		run(wctx)
	}()
	return nil
}

// watcher is one Watch's state, owned by its goroutine (and, for the
// first read, by the caller of Watch before that goroutine starts).
type watcher struct {
	s  *Store
	fn func(Event)

	started   bool   // an event was delivered
	reachable bool   // the last read or watch answer succeeded
	last      State  // the state last delivered
	accepted  *State // the last state read without error; nil before one
	rev       int64  // the store revision the etcd watch resumes after
}

func (w *watcher) run(ctx context.Context) {
	tick := time.NewTicker(probeEvery)
	defer tick.Stop()
	for ctx.Err() == nil {
		if w.reachable {
			w.follow(ctx, tick)
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			w.read(ctx)
		}
	}
}

// follow runs one etcd watch from w.rev+1 until it fails or a probe finds
// etcd unreachable; w.reachable says which on return. The etcd client's
// Watch blocks until its stream is up, which is never while etcd is away,
// so it is called from a goroutine of follow's own, which ends with fctx
// before follow returns; the probe keeps running meanwhile.
func (w *watcher) follow(ctx context.Context, tick *time.Ticker) {
	fctx, cancel := context.WithCancel(ctx)
	var opening sync.WaitGroup
	defer opening.Wait()
	defer cancel()
	opened := make(chan clientv3.WatchChan, 1)
	from := w.rev + 1 // read here: the loop below moves w.rev while the watch opens
	opening.Go(func() {
		opened <- w.s.cli.Watch(clientv3.WithRequireLeader(fctx), w.s.stopKey, clientv3.WithRev(from))
	})
	var wch clientv3.WatchChan // nil, so never ready, until opened
	for {
		select {
		case <-ctx.Done():
			return
		case wch = <-opened:
		case resp, ok := <-wch:
			if !ok || resp.Err() != nil {
				// Closed, compacted past w.rev, or the member lost its
				// leader: read again and start a new watch from there.
				w.read(ctx)
				return
			}
			for _, ev := range resp.Events {
				w.apply(ctx, ev)
			}
		case <-tick.C:
			if !w.read(ctx) {
				return
			}
		}
	}
}

// read reads the flag with a short deadline and delivers what changed; it
// reports whether etcd answered.
func (w *watcher) read(ctx context.Context) bool {
	rctx, cancel := context.WithTimeout(ctx, probeTimeout)
	st, rev, err := w.s.readStop(rctx)
	cancel()
	if ctx.Err() != nil {
		return false
	}
	var malformed *MalformedError
	if err != nil && !errors.As(err, &malformed) {
		w.lost(err)
		return false
	}
	w.rev = max(w.rev, rev)
	w.repair(ctx, err)
	w.deliver(st, err)
	return true
}

func (w *watcher) apply(ctx context.Context, ev *clientv3.Event) {
	w.rev = max(w.rev, ev.Kv.ModRevision)
	if ev.Type == mvccpb.DELETE {
		w.s.absent(w.s.stopKey)
		w.deliver(w.s.missingStop(ev.Kv.ModRevision))
		return
	}
	st, err := w.s.decodeStop(ev.Kv)
	w.repair(ctx, err)
	w.deliver(st, err)
}

// repair signs the flag this member last accepted again when err says an
// older one was written back over it (repairStop); a member that has
// accepted none counts the flag as a Stop.
func (w *watcher) repair(ctx context.Context, err error) {
	var malformed *MalformedError
	if !errors.Is(err, ErrReplayed) || !errors.As(err, &malformed) {
		return
	}
	known := State{Stopped: true}
	if w.accepted != nil {
		known = *w.accepted
	}
	w.s.repairStop(ctx, known, malformed.Value)
}

// deliver calls fn with st unless fn already has it or something newer.
// The first event and the first after etcd came back are always delivered.
func (w *watcher) deliver(st State, err error) {
	if w.started && w.reachable && st.Rev <= w.last.Rev {
		return
	}
	w.started, w.reachable, w.last = true, true, st
	if err == nil {
		w.accepted = &st
	}
	w.fn(Event{Reachable: true, State: st, Err: err})
}

// lost tells fn, once, that etcd cannot be reached.
func (w *watcher) lost(err error) {
	if w.started && !w.reachable {
		return
	}
	w.started, w.reachable = true, false
	var unreachable *UnreachableError
	if !errors.As(err, &unreachable) {
		err = w.s.unreachable(err)
	}
	w.fn(Event{Reachable: false, State: w.last, Err: err})
}
