package grains

import (
	"context"
	"errors"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"
)

// localName names the actor each member runs for what is asked of every
// member (Each).
const localName = "buddi-member"

// Local answers a registered message sent to every member with Each, on
// this member; nil answers nothing (the asker hears no answer from it).
// It runs on the member's local actor, one message at a time.
type Local func(msg any) any

// localActor hands what arrives to the Config's Local.
type localActor struct{ answer Local }

func (l *localActor) Receive(ctx actor.Context) {
	switch ctx.Message().(type) {
	case actor.SystemMessage, actor.AutoReceiveMessage:
		return
	}
	if r := l.answer(ctx.Message()); r != nil && ctx.Sender() != nil {
		ctx.Respond(r)
	}
}

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
