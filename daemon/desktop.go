package daemon

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/buddi-dev/buddi/actors/desktop"
	"github.com/buddi-dev/buddi/drivers/native"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// lockWait bounds a conversation's wait for the desktop lock's answer.
const lockWait = 10 * time.Second

// startDesktop spawns the desktop lock of Use my apps. It follows the
// owner's Stop: a Stop revokes computer control and a resume gives it
// back, and the lock keeps that in the ledger, so a Stop holds across a
// restart even if an event was missed (the Stop record is checked at start).
func (d *Daemon) startDesktop() error {
	var err error
	d.desk, err = d.sys.Root.SpawnNamed(desktop.Props(desktop.Config{Store: d.store, Ledger: d.ledger, Log: d.opts.Log,
		Lease: d.opts.DesktopLease}), "desktop")
	if err != nil {
		return fmt.Errorf("daemon: start the desktop lock: %w", err)
	}
	stop, err := d.store.Stop()
	if err != nil {
		return err
	}
	if stop.Stopped {
		d.sys.Root.Send(d.desk, &desktop.Revoke{})
	}
	return nil
}

// followStop forwards the owner's Stop and resume to the desktop lock
// until ctx ends, and, where this install offers Use my apps, whether each
// of its conversations is taken over (its lease does not run out while the
// owner is at the computer). An install without it follows no session.
func (d *Daemon) followStop(ctx context.Context) {
	kinds := messages.KindStop
	if d.mode.offers(native.Name) {
		kinds |= messages.KindSession
	}
	sub := d.bus.Subscribe(events.Filter{Kinds: kinds, Passive: true, Size: 256})
	go func() {
		defer sub.Close()
		for {
			e, err := sub.Next(ctx)
			if err != nil {
				return
			}
			switch s := e.(type) {
			case *messages.StopChanged:
				var msg any = &desktop.Resume{}
				if s.Stopped {
					msg = &desktop.Revoke{}
				}
				d.sys.Root.Send(d.desk, msg)
			case *messages.SessionChanged:
				if s.Session.Computer {
					d.sys.Root.Send(d.desk, &desktop.Hold{Conversation: s.Session.Conversation,
						On: !s.Ended && s.Session.State == messages.StateTakenOver})
				}
			}
		}
	}()
}

// desktopLock is the lock as the native driver asks it.
type desktopLock struct{ d *Daemon }

var _ native.Lock = desktopLock{}

// Acquire takes or renews the lock for conv.
func (l desktopLock) Acquire(ctx context.Context, conv string) error {
	wait := lockWait
	if dl, ok := ctx.Deadline(); ok {
		wait = min(wait, time.Until(dl))
	}
	res, err := l.d.sys.Root.RequestFuture(l.d.desk, &desktop.Acquire{Conversation: conv}, wait).Result()
	if err != nil {
		return messages.Errorf(messages.CodeTimeout, "The desktop lock did not answer; try again in a moment.")
	}
	switch r := res.(type) {
	case *desktop.Held:
		return nil
	case *desktop.Refused:
		return r.Err
	}
	return errors.New("daemon: the desktop lock answered something unexpected")
}

// Release gives the lock back if conv holds it.
func (l desktopLock) Release(conv string) {
	l.d.sys.Root.Send(l.d.desk, &desktop.Release{Conversation: conv})
}
