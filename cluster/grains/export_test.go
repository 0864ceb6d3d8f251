package grains

import (
	"context"
)

// SendTwice sends one envelope of msg from m to identity's activation
// twice, as a host that captured it on the wire would send it again, and
// returns what each copy was answered.
func SendTwice(ctx context.Context, m *Member, identity string, msg any) (first, second any, err2 error) {
	pid, err := m.lookup(ctx, identity, nil)
	if err != nil {
		return nil, nil, err
	}
	wire, err := m.cfg.Types.encode(msg)
	if err != nil {
		return nil, nil, err
	}
	reply, err := m.system.Root.RequestFuture(pid, wire, m.cfg.RequestTimeout).Result()
	if err != nil {
		return nil, nil, err
	}
	if first, err = m.answer(reply); err != nil {
		return nil, nil, err
	}
	reply, err = m.system.Root.RequestFuture(pid, wire, m.cfg.RequestTimeout).Result()
	if err != nil {
		return first, nil, err
	}
	second, err2 = m.answer(reply)
	return first, second, err2
}
