package grains

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// localName names the actor each member runs for what is asked of every
// member (Each).
const localName = "buddi-member"

// Local answers a registered message sent to every member with Each, on
// this member; nil answers nothing (the asker hears no answer from it).
// It runs on the member's local actor, one message at a time, in order,
// and must not block: an answer that must wait (on an actor, on I/O) is
// a Later.
type Local func(msg any) any

// Later is what a Local returns for an answer that must wait: the local
// actor runs it off its mailbox, bounded by LaterWait, and answers with
// what it returns (nil: nothing), while the messages after it go on.
type Later func(ctx context.Context) any

// LaterWait bounds a Later.
const LaterWait = 10 * time.Second

// localActor hands what arrives to the Config's Local.
type localActor struct{ answer Local }

func (l *localActor) Receive(ctx actor.Context) {
	switch ctx.Message().(type) {
	case actor.SystemMessage, actor.AutoReceiveMessage:
		return
	}
	r := l.answer(ctx.Message())
	if later, ok := r.(Later); ok {
		l.later(ctx, later)
		return
	}
	if r != nil && ctx.Sender() != nil {
		ctx.Respond(r)
	}
}

// later runs f on a goroutine of its own; its answer comes back through a
// future into the mailbox, and goes to the asker from there (through the
// actor's encoding).
func (l *localActor) later(ctx actor.Context, f Later) {
	fut := actor.NewFuture(ctx.ActorSystem(), LaterWait)
	to, root := fut.PID(), ctx.ActorSystem().Root
	go func() {
		c, cancel := context.WithTimeout(context.Background(), LaterWait)
		defer cancel()
		root.Send(to, &laterAnswer{f(c)})
	}()
	ctx.ReenterAfter(fut, func(res any, err error) {
		if a, ok := res.(*laterAnswer); ok && err == nil && a.v != nil && ctx.Sender() != nil {
			ctx.Respond(a.v)
		}
	})
}

// laterAnswer carries a Later's answer through its future.
type laterAnswer struct{ v any }

// startLocal spawns this member's local actor when the Config has a Local.
func (m *Member) startLocal() error {
	if m.cfg.Local == nil {
		return nil
	}
	props := actor.PropsFromProducer(func() actor.Actor { return &localActor{answer: m.cfg.Local} },
		actor.WithReceiverMiddleware(decoding(m.cfg.Types)),
		actor.WithSenderMiddleware(encoding(m.cfg.Types)))
	if _, err := m.system.Root.SpawnNamed(props, localName); err != nil {
		return fmt.Errorf("grains: start this member's local actor: %w", err)
	}
	return nil
}

// Each sends msg, a registered message, to every member the cluster lists
// (this one included) at once, and returns the decoded answers of those
// that answered while ctx lasted. err joins why the others did not; the
// answers that came are returned all the same.
func (m *Member) Each(ctx context.Context, msg any) ([]any, error) {
	sent, ctx, cancel, err := m.outgoing(ctx, msg)
	if err != nil {
		return nil, err
	}
	defer cancel()
	addrs := m.Members()
	type reply struct {
		addr string
		v    any
		err  error
	}
	replies := make(chan reply, len(addrs))
	for _, addr := range addrs {
		go func() {
			v, err := m.ask(ctx, actor.NewPID(addr, localName), sent)
			if err == nil {
				v, err = m.answer(v)
			}
			replies <- reply{addr, v, err}
		}()
	}
	var out []any
	var errs []error
	for range addrs {
		r := <-replies
		if r.err != nil {
			errs = append(errs, fmt.Errorf("member at %s: %w", r.addr, r.err))
			continue
		}
		out = append(out, r.v)
	}
	return out, errors.Join(errs...)
}

// Ask sends msg, a registered message, to the member at addr and returns
// the decoded answer of its Local, or why none came while ctx lasted.
func (m *Member) Ask(ctx context.Context, addr string, msg any) (any, error) {
	sent, ctx, cancel, err := m.outgoing(ctx, msg)
	if err != nil {
		return nil, err
	}
	defer cancel()
	v, err := m.ask(ctx, actor.NewPID(addr, localName), sent)
	if err != nil {
		return nil, err
	}
	return m.answer(v)
}

// TellTo sends msg, a registered message, to the member at addr without
// waiting: its Local is called with it. What one member tells another
// arrives in the order it was told; a member that is away does not get it.
func (m *Member) TellTo(addr string, msg any) error {
	if m.isClosed() {
		return ErrClosed
	}
	wire, err := m.cfg.Types.encode(msg)
	if err != nil {
		return err
	}
	m.system.Root.Send(actor.NewPID(addr, localName), wire)
	return nil
}

// Tell sends msg, a registered message, to every other member the cluster
// lists, without waiting: their Local is called with it, and what it
// answers goes nowhere. A member that is away does not get it.
func (m *Member) Tell(msg any) error {
	if m.isClosed() {
		return ErrClosed
	}
	self := m.system.Address()
	for _, addr := range m.Members() {
		if addr == self {
			continue
		}
		// encoded for each member: a copy of one member's envelope is
		// refused by every other, not only by the one that took it
		wire, err := m.cfg.Types.encode(msg)
		if err != nil {
			return err
		}
		m.system.Root.Send(actor.NewPID(addr, localName), wire)
	}
	return nil
}
