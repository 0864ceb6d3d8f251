package session

import (
	"context"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// snapWait bounds taking a snapshot.
const snapWait = 10 * time.Second

// snapped carries a snapshot taken off the mailbox back into it; snap is
// nil when none could be taken.
type snapped struct{ snap *messages.Snapshot }

// snapshotAfter takes the owner's view of the page after an act, while
// someone watches: from the act's own screenshot, or a fresh one. It runs
// after the agent was answered, so the agent never waits for it; its next
// act may wait for the tabs' turn while the capture runs.
func (a *Actor) snapshotAfter(ctx actor.Context, d *done) {
	if a.tabs == nil || !a.cfg.Bus.Watched(messages.KindSnapshot) {
		return
	}
	a.takeSnapshot(ctx, d.shot)
}

// takeSnapshot scales shot, or a screenshot it takes when shot is nil, off
// the mailbox, publishes it, and sends it back as *snapped. It is published
// from here, not from the mailbox, so that the picture of a session's last
// act is kept even when the session ends before it is taken.
func (a *Actor) takeSnapshot(ctx actor.Context, shot []byte) {
	tabs, conv, url, now, bus := a.tabs, a.cfg.Conversation, a.url, a.cfg.Now, a.cfg.Bus
	self, sys := ctx.Self(), ctx.ActorSystem()
	go func() {
		at := now()
		if shot == nil {
			c, cancel := context.WithTimeout(context.Background(), snapWait)
			out, err := tabs.Do(c, &drivers.Action{Kind: drivers.Screenshot})
			cancel()
			if err == nil {
				shot, at = out.Image, now()
				if out.URL != "" {
					url = out.URL
				}
			}
		}
		var s *messages.Snapshot
		if shot != nil {
			if j := scaled(shot, snapEdge, snapQuality); j != nil {
				s = &messages.Snapshot{Conversation: conv, URL: url, At: at.UTC(), JPEG: j}
				bus.Publish(&messages.SnapshotTaken{Snapshot: *s})
			}
		}
		sys.Root.Send(self, &snapped{snap: s})
	}()
}

// snapped keeps a snapshot and answers the owners waiting.
func (a *Actor) snapped(ctx actor.Context, m *snapped) {
	if m.snap != nil && (a.snap == nil || m.snap.At.After(a.snap.At)) {
		a.snap = m.snap
	}
	for _, p := range a.asking {
		ctx.Send(p, a.snapshotReply())
	}
	a.asking = nil
}

// snapshotOf answers the owner with the latest snapshot, taking one first
// when there is none yet.
func (a *Actor) snapshotOf(ctx actor.Context) {
	if a.snap != nil || a.tabs == nil {
		ctx.Respond(a.snapshotReply())
		return
	}
	a.asking = append(a.asking, ctx.Sender())
	if len(a.asking) == 1 {
		a.takeSnapshot(ctx, nil)
	}
}

func (a *Actor) snapshotReply() *messages.OwnerReply {
	if a.snap == nil {
		return messages.OwnerFail(&messages.Error{Code: messages.CodeNotFound,
			Message: "There is no snapshot of this session yet: its agent has not opened a page."})
	}
	return &messages.OwnerReply{Result: a.snap}
}

// snapshotGone answers the owners waiting for a snapshot that will not
// come: the session is stopping.
func (a *Actor) snapshotGone(ctx actor.Context) {
	for _, p := range a.asking {
		ctx.Send(p, messages.OwnerFail(&messages.Error{Code: messages.CodeNoSession,
			Message: "The session ended before its picture was taken."}))
	}
	a.asking = nil
}
