package shared

import (
	"context"
	"fmt"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

const (
	// registerRetry is the pause before granting a new lease after etcd
	// did not answer or the lease was lost.
	registerRetry = time.Second
	// registerTimeout bounds each grant, write and revoke.
	registerTimeout = 2 * time.Second
)

// Registration keeps one member's key in etcd alive: written under a
// lease of MemberTTL seconds, kept alive, written again with the new
// capacity on Update, and granted anew if the lease is lost (etcd away
// longer than the TTL). It ends with Leave or with the Store's Close,
// either of which deletes the key at once (revokes the lease); a member
// that dies without either disappears when its lease runs out.
type Registration struct {
	s    *Store
	stop context.CancelFunc
	done chan struct{}

	mu      sync.Mutex
	m       Member
	changed chan struct{} // one pending wake-up, for Update
}

// Register writes m under <prefix>/members/<m.ID> and keeps it there from
// a goroutine of its own. It returns once the first write is committed,
// or with an *UnreachableError when etcd does not take it. A key left by
// an earlier run of the same member (a restart within the TTL) is taken
// over, not duplicated; a live key of the same id at another address is
// another member (a copied data directory), refused with *IDTakenError.
func (s *Store) Register(ctx context.Context, m Member) (*Registration, error) {
	if err := m.validate(); err != nil {
		return nil, err
	}
	if err := s.idFree(ctx, m); err != nil {
		return nil, err
	}
	if m.Since.IsZero() {
		m.Since = time.Now()
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, ErrClosed
	}
	s.watches.Add(1)
	s.mu.Unlock()

	rctx, cancel := context.WithCancel(s.life)
	r := &Registration{s: s, stop: cancel, done: make(chan struct{}), m: m, changed: make(chan struct{}, 1)}
	lease, err := r.grant(ctx)
	if err != nil {
		cancel()
		s.watches.Done()
		return nil, err
	}
	go func() {
		defer s.watches.Done()
		defer close(r.done)
		r.run(rctx, lease)
	}()
	return r, nil
}

// Update records a new capacity; the key is rewritten soon after, from the
// registration's goroutine. It never blocks.
func (r *Registration) Update(c Capacity) {
	r.mu.Lock()
	same := r.m.Capacity == c
	r.m.Capacity = c
	r.mu.Unlock()
	if same {
		return
	}
	select {
	case r.changed <- struct{}{}:
	default:
	}
}

// Leave deletes the member's key and ends the registration; it is safe to
// call more than once and after the Store's Close.
func (r *Registration) Leave() {
	r.stop()
	<-r.done
}

func (r *Registration) member() Member {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.m
}

// grant takes a new lease and writes the member under it.
func (r *Registration) grant(ctx context.Context) (clientv3.LeaseID, error) {
	gctx, cancel := context.WithTimeout(ctx, registerTimeout)
	defer cancel()
	g, err := r.s.cli.Grant(gctx, MemberTTL)
	if err != nil {
		return 0, r.s.unreachable(err)
	}
	if err := r.put(gctx, g.ID); err != nil {
		_, _ = r.s.cli.Revoke(gctx, g.ID)
		return 0, err
	}
	return g.ID, nil
}

func (r *Registration) put(ctx context.Context, lease clientv3.LeaseID) error {
	m := r.member()
	val, err := m.encode()
	if err != nil {
		return err
	}
	_, err = r.s.write(ctx, r.s.memberKey(m.ID), val, false, nil, nil, clientv3.WithLease(lease))
	return err
}

// run keeps the lease alive until ctx ends, then revokes it.
func (r *Registration) run(ctx context.Context, lease clientv3.LeaseID) {
	for {
		if lease != 0 {
			r.keep(ctx, lease)
			r.revokeIf(ctx, lease)
		}
		lease = 0
		select {
		case <-ctx.Done():
			return
		case <-time.After(registerRetry):
		}
		lease, _ = r.grant(ctx) // 0 again if etcd still does not answer
	}
}

// keep keeps lease alive and rewrites the key on Update, until ctx ends or
// the lease is lost.
func (r *Registration) keep(ctx context.Context, lease clientv3.LeaseID) {
	kctx, cancel := context.WithCancel(ctx)
	defer cancel()
	alive, err := r.s.cli.KeepAlive(kctx, lease)
	if err != nil {
		return
	}
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-alive:
			if !ok {
				return // expired, or etcd away past the TTL
			}
		case <-r.changed:
			pctx, pcancel := context.WithTimeout(ctx, registerTimeout)
			err := r.put(pctx, lease)
			pcancel()
			if err != nil {
				return // the next grant writes the member as it is then
			}
		}
	}
}

// revokeIf deletes the key now when the registration ends (ctx done),
// rather than when the lease runs out.
func (r *Registration) revokeIf(ctx context.Context, lease clientv3.LeaseID) {
	if ctx.Err() == nil {
		return
	}
	c, cancel := context.WithTimeout(context.Background(), registerTimeout)
	defer cancel()
	_, _ = r.s.cli.Revoke(c, lease)
}

// IDTakenError refuses a member whose id a live member at another address
// holds: two hosts started from copies of one data directory.
type IDTakenError struct{ ID, Addr string }

func (e *IDTakenError) Error() string {
	return fmt.Sprintf("the member id %s is held by the member at %s; was this data directory copied from it? Remove its member-id file, and this member makes an id of its own", e.ID, e.Addr)
}

// idFree refuses m when its id's key names another address and stays
// alive past one lease: a member that died (restarting elsewhere, as a
// rescheduled pod does) lets its lease run out; a copy keeps it alive.
// The same address is this member's own earlier run, taken over at once.
func (s *Store) idFree(ctx context.Context, m Member) error {
	deadline := time.Now().Add(MemberTTL*time.Second + registerRetry)
	for {
		gctx, cancel := context.WithTimeout(ctx, registerTimeout)
		got, err := s.cli.Get(gctx, s.memberKey(m.ID))
		cancel()
		if err != nil {
			return s.unreachable(err)
		}
		if len(got.Kvs) == 0 {
			return nil
		}
		held, ok := s.decodeMember(got.Kvs[0])
		if !ok || held.Addr == m.Addr {
			return nil
		}
		if time.Now().After(deadline) {
			return &IDTakenError{ID: m.ID, Addr: held.Addr}
		}
		select {
		case <-ctx.Done():
			return s.unreachable(ctx.Err())
		case <-time.After(idPoll):
		}
	}
}

// idPoll is the pause between two reads of a member key held elsewhere.
const idPoll = 250 * time.Millisecond
