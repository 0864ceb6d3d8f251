package grains

import "github.com/asynkron/protoactor-go/actor"

// TellTwice is TellTo whose one envelope is sent twice: an envelope
// captured on the wire and sent again.
func TellTwice(m *Member, addr string, msg any) error {
	wire, err := m.cfg.Types.encode(msg)
	if err != nil {
		return err
	}
	to := actor.NewPID(addr, localName)
	m.system.Root.Send(to, wire)
	m.system.Root.Send(to, wire)
	return nil
}

// Listed is the last topology's addresses, admitted or not.
func Listed(m *Member) []string { return m.listed() }

// PlaceAsIf makes m place sessions as if its member list were addrs (a
// list behind the cluster's): its lookups and its placer use addrs, while
// its activator keeps the list it has.
func PlaceAsIf(m *Member, addrs []string) {
	m.places.mu.Lock()
	m.places.members = addrs
	m.places.mu.Unlock()
	m.system.Root.Send(m.places.placer, &topology{members: addrs})
}

// SettleWait is how long an authority asks every member before it places.
const SettleWait = settleWait
