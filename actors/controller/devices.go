package controller

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// addDevice signs a dashboard device in once the ledger has it.
func (a *Actor) addDevice(ctx actor.Context, m *messages.AddDevice) {
	d, evicted, e := a.devices.Add(m)
	if e != nil {
		ctx.Respond(fail(e))
		return
	}
	ops := []ledger.Op{ledger.Put(ledger.DeviceKey(d.ID), d)}
	if evicted != nil {
		ops = append(ops, ledger.Delete(ledger.DeviceKey(evicted.ID)))
	}
	sender := ctx.Sender()
	a.write(ctx, &ledger.Write{Owner: true, Ops: ops}, sender, func(err error) {
		if err != nil {
			a.devices.Remove(d.ID)
			reply(ctx, sender, storeFailed("The sign-in", err))
			return
		}
		v := m.Device
		reply(ctx, sender, &messages.OwnerReply{Result: &v})
	})
}

// findDevice names the device a dashboard request comes from.
func (a *Actor) findDevice(ctx actor.Context, m *messages.FindDevice) {
	v, expired, e := a.devices.Find(m.TokenHash)
	if expired != "" {
		ctx.Send(a.cfg.Ledger, &ledger.Write{Ops: []ledger.Op{ledger.Delete(ledger.DeviceKey(expired))}})
	}
	if e != nil {
		ctx.Respond(fail(e))
		return
	}
	ctx.Respond(&messages.OwnerReply{Result: v})
}

// removeDevice signs a device out at once and answers once it is durable.
func (a *Actor) removeDevice(ctx actor.Context, m *messages.RemoveDevice) {
	d, e := a.devices.Remove(m.ID)
	if e != nil {
		ctx.Respond(fail(e))
		return
	}
	sender := ctx.Sender()
	a.write(ctx, &ledger.Write{Owner: true, Ops: []ledger.Op{ledger.Delete(ledger.DeviceKey(d.ID))}}, sender, func(err error) {
		if err != nil {
			reply(ctx, sender, storeFailed("The sign-out", err))
			return
		}
		reply(ctx, sender, &messages.OwnerReply{Result: &messages.DeviceRemoved{ID: d.ID}})
	})
}
