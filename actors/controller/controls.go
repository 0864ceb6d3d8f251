package controller

import (
	"fmt"
	"sort"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// forwardControl passes take over, resume and release to the session.
func (a *Actor) forwardControl(ctx actor.Context) {
	var conv string
	switch m := ctx.Message().(type) {
	case *messages.TakeOver:
		conv = m.Conversation
	case *messages.Resume:
		conv = m.Conversation
	case *messages.Release:
		conv = m.Conversation
	case *messages.Screenshots:
		conv = m.Conversation
	}
	e := a.sessions[conv]
	if e == nil {
		ctx.Respond(fail("no_session", fmt.Sprintf("Conversation %s has no running session; `buddi sessions` lists them.", conv)))
		return
	}
	ctx.Forward(e.pid)
}

// stopAll persists the Stop, then has every session drop its action and
// close its tabs, and answers when all have.
func (a *Actor) stopAll(ctx actor.Context) {
	sender := ctx.Sender()
	a.stop = ledger.Stop{Stopped: true, At: a.cfg.Now()}
	f := ctx.RequestFuture(a.ledger, &messages.LedgerWrite{Ops: []messages.LedgerOp{
		ledger.Put(ledger.StopKey(), a.stop)}}, ledgerTimeout)
	a.after(ctx, f, sender, func(res any, err error) {
		if err = ledger.Written(res, err); err != nil {
			reply(ctx, sender, fail("store_failed", "The Stop could not be saved: "+err.Error()))
			return
		}
		a.cfg.Log.Warn("all browser access stopped by the owner")
		a.broadcastStop(ctx, sender)
	})
}

func (a *Actor) broadcastStop(ctx actor.Context, sender *actor.PID) {
	left := len(a.sessions)
	result := map[string]any{"stopped": true, "sessions": left}
	if left == 0 {
		reply(ctx, sender, &messages.OwnerReply{Result: result})
		return
	}
	for _, e := range a.sessions {
		f := ctx.RequestFuture(e.pid, &messages.StopAll{}, 15*time.Second)
		a.after(ctx, f, sender, func(any, error) {
			if left--; left == 0 {
				reply(ctx, sender, &messages.OwnerReply{Result: result})
			}
		})
	}
}

// resumeAll lifts the Stop once the ledger has it.
func (a *Actor) resumeAll(ctx actor.Context) {
	sender := ctx.Sender()
	next := ledger.Stop{Stopped: false, At: a.cfg.Now()}
	f := ctx.RequestFuture(a.ledger, &messages.LedgerWrite{Ops: []messages.LedgerOp{
		ledger.Put(ledger.StopKey(), next)}}, ledgerTimeout)
	a.after(ctx, f, sender, func(res any, err error) {
		if err = ledger.Written(res, err); err != nil {
			reply(ctx, sender, fail("store_failed", "Resuming could not be saved: "+err.Error()))
			return
		}
		a.stop = next
		a.cfg.Log.Info("browser access resumed by the owner")
		reply(ctx, sender, &messages.OwnerReply{Result: map[string]any{"stopped": false}})
	})
}

func (a *Actor) sessionList() []messages.SessionInfo {
	out := make([]messages.SessionInfo, 0, len(a.sessions))
	for _, e := range a.sessions {
		out = append(out, e.info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Conversation < out[j].Conversation })
	return out
}
