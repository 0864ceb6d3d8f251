package grains

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/cluster"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// Request sends msg, a registered message, to the session grain named
// identity, wherever the cluster places it, and returns its decoded
// answer. A *Failure answer is returned as the error. It waits until ctx's
// deadline, or the member's RequestTimeout when ctx has none.
func (m *Member) Request(ctx context.Context, identity string, msg any) (any, error) {
	if m.isClosed() {
		return nil, ErrClosed
	}
	if identity == "" {
		return nil, errors.New("grains: the session identity is empty; give the conversation id")
	}
	wire, err := m.cfg.Types.encode(msg)
	if err != nil {
		return nil, err
	}
	timeout := m.cfg.RequestTimeout
	if d, ok := ctx.Deadline(); ok {
		timeout = time.Until(d)
	}
	if timeout <= 0 || ctx.Err() != nil {
		return nil, fmt.Errorf("grains: %w", context.DeadlineExceeded)
	}
	reply, err := m.cluster.Request(identity, Kind, wire, cluster.WithTimeout(timeout))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	if reply == nil {
		return nil, ErrUnavailable
	}
	return m.answer(reply)
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
