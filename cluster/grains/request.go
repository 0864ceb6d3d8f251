package grains

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// lookupPause is the wait before asking the placement authority again
// when it could not place the grain.
const lookupPause = 50 * time.Millisecond

// Request sends msg, a registered message, to the session grain named
// identity, wherever the cluster places it, and returns its decoded
// answer. A *Failure answer is returned as the error. It waits until ctx
// ends, and no longer than the member's RequestTimeout when ctx has no
// deadline.
//
// The message is sent at most once, and only while ctx lasts: it is
// sent again only to a new activation after a dead letter (the old one
// is gone and never saw it). ErrUnavailable means it was not sent;
// ErrNoAnswer means it was and its outcome is unknown. A *NoRoomError
// (ErrNoRoom) means the session had no activation and no member had room
// for one: it was not sent.
func (m *Member) Request(ctx context.Context, identity string, msg any) (any, error) {
	if identity == "" {
		return nil, errors.New("grains: the session identity is empty; give the conversation id")
	}
	out, ctx, cancel, err := m.outgoing(ctx, msg)
	if err != nil {
		return nil, err
	}
	defer cancel()
	var stale *actor.PID
	for {
		pid, err := m.lookup(ctx, identity, stale)
		if err != nil {
			return nil, err
		}
		if samePID(pid, stale) { // the same gone activation again: give the topology a moment
			select {
			case <-time.After(lookupPause):
			case <-ctx.Done():
				return nil, fmt.Errorf("%w: %w", ErrUnavailable, cause(ctx))
			}
		}
		reply, err := m.ask(ctx, pid, out)
		if errors.Is(err, errGone) {
			m.cluster.PidCache.RemoveByValue(identity, Kind, pid)
			stale = pid
			continue
		}
		if err != nil {
			return nil, err
		}
		return m.answer(reply)
	}
}

// errGone is a dead letter: the activation asked is no more.
var errGone = errors.New("grains: the activation is gone")

// lookup finds the activation through protoactor's pid cache or else
// the identity's placement authority, which activates the grain on a
// member with room when it has no live activation; stale is one the
// caller found gone. It asks again, after a pause, while the authority is
// unknown, does not answer or could not ask a member, and returns a
// *NoRoomError at once.
func (m *Member) lookup(ctx context.Context, identity string, stale *actor.PID) (*actor.PID, error) {
	if pid, ok := m.cluster.PidCache.Get(identity, Kind); ok && !samePID(pid, stale) {
		return pid, nil
	}
	for {
		pid, err := m.places.place(ctx, identity, stale)
		switch {
		case err == nil:
			m.cluster.PidCache.Set(identity, Kind, pid)
			return pid, nil
		case errors.Is(err, ErrNoRoom):
			return nil, err
		case ctx.Err() != nil:
			return nil, fmt.Errorf("%w: %w", ErrUnavailable, cause(ctx))
		}
		select {
		case <-time.After(lookupPause):
		case <-ctx.Done():
			return nil, fmt.Errorf("%w: %w", ErrUnavailable, cause(ctx))
		}
	}
}

// ask sends out to pid once and waits for the answer while ctx lasts.
func (m *Member) ask(ctx context.Context, pid *actor.PID, out *outbound) (any, error) {
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, cause(ctx))
	}
	if m.departed(pid.Address) || m.losses.isDown(pid.Address) {
		return nil, errGone // never sent: its member left, or its endpoint is down
	}
	payload, err := out.to(pid, m.system.Address())
	if err != nil {
		return nil, err
	}
	d, _ := ctx.Deadline()
	future := m.system.Root.RequestFuture(pid, payload, time.Until(d))
	done := make(chan result, 1)
	go func() {
		reply, err := future.Result()
		done <- result{reply, err}
	}()
	var lost <-chan struct{} // nil: never, for an activation on this member
	if pid.Address != m.system.Address() {
		ch, unwatch := m.losses.watch(pid.Address)
		defer unwatch()
		lost = ch
	}
	select {
	case <-lost:
		return nil, fmt.Errorf("%w: the member at %s holding it was lost", ErrNoAnswer, pid.Address)
	case r := <-done:
		switch {
		case errors.Is(r.err, actor.ErrDeadLetter) || errors.Is(r.err, remote.ErrDeadLetter):
			return nil, errGone
		case r.err != nil:
			return nil, fmt.Errorf("%w: %w", ErrNoAnswer, r.err)
		case r.reply == nil:
			return nil, ErrNoAnswer
		}
		return r.reply, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("%w: %w", ErrNoAnswer, cause(ctx))
	}
}

// cause is why ctx ended, or DeadlineExceeded for a deadline that has
// passed before ctx noticed.
func cause(ctx context.Context) error {
	if err := context.Cause(ctx); err != nil {
		return err
	}
	return context.DeadlineExceeded
}

type result struct {
	reply any
	err   error
}

// answer decodes a grain's reply: an envelope from another member, or the
// typed message itself from a grain on this one.
func (m *Member) answer(reply any) (any, error) {
	if wire, ok := reply.(*wrapperspb.BytesValue); ok {
		var err error
		if reply, err = m.cfg.Types.decode(wire); err != nil {
			return nil, err
		}
	}
	if _, ok := m.cfg.Types.name(reply); !ok {
		return nil, &UnknownTypeError{Type: fmt.Sprintf("%T", reply)}
	}
	if f, ok := reply.(*Failure); ok {
		return nil, f
	}
	return reply, nil
}

// departed reports whether the member at addr has left the topology this
// member follows (never for itself, nor before a topology is known).
func (m *Member) departed(addr string) bool {
	if addr == m.system.Address() {
		return false
	}
	ms := m.listed()
	return len(ms) > 0 && !slices.Contains(ms, addr)
}

// outgoing checks this member is still in the cluster and msg is a
// registered message, and bounds ctx by RequestTimeout when it has no
// deadline; cancel releases it.
func (m *Member) outgoing(ctx context.Context, msg any) (*outbound, context.Context, context.CancelFunc, error) {
	if m.isClosed() {
		return nil, ctx, func() {}, ErrClosed
	}
	if err := m.cfg.Types.check(msg); err != nil {
		return nil, ctx, func() {}, err
	}
	out := &outbound{msg: msg, types: m.cfg.Types}
	if _, ok := ctx.Deadline(); ok {
		return out, ctx, func() {}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, m.cfg.RequestTimeout)
	return out, ctx, cancel, nil
}

// outbound is a message on its way: as it is to an actor on this member
// (the receiver's middleware lets typed messages through, and its answer
// comes back typed), and encoded afresh, with a nonce of its own, each
// time another member's actor is asked.
type outbound struct {
	msg   any
	types *Registry
}

// to is what is sent to pid, from the member at self.
func (o *outbound) to(pid *actor.PID, self string) (any, error) {
	if pid.Address == self {
		return o.msg, nil
	}
	return o.types.encode(o.msg)
}
