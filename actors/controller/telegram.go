package controller

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/controller/chat"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// telegram handles the pairing and the bindings; false for a message it
// does not know.
func (a *Actor) telegram(ctx actor.Context) bool {
	switch m := ctx.Message().(type) {
	case *messages.GetTelegram:
		v := a.chat.View()
		ctx.Respond(&messages.OwnerReply{Result: &v})
	case *messages.PairTelegram:
		if e := chat.CheckPair(m); e != nil {
			ctx.Respond(fail(e))
			return true
		}
		was := a.boundSurfaces()
		a.saveTelegram(ctx, a.chat.Pair(m, a.cfg.Now()), was)
	case *messages.UnpairTelegram:
		was := a.boundSurfaces()
		ops, _ := a.chat.Unpair()
		a.saveTelegram(ctx, ops, was)
	case *messages.BindTelegram:
		was := a.boundSurfaces()
		ops, e := a.chat.Bind(m.Conversation, m.Bound, a.cfg.Now())
		if e != nil {
			ctx.Respond(fail(e))
			return true
		}
		a.saveTelegram(ctx, ops, was)
	default:
		return false
	}
	return true
}

// boundSurfaces is each running session's surface now, to tell the ones
// that change.
func (a *Actor) boundSurfaces() map[string]messages.Surface {
	out := make(map[string]messages.Surface, len(a.sessions))
	for conv := range a.sessions {
		out[conv] = a.chat.Surface(conv)
	}
	return out
}

// saveTelegram writes a change of the pairing or the bindings in the
// owner's lane, tells the sessions whose surface changed and subscribers,
// and answers the owner with the pairing once the ledger has it. The book
// already holds the change: it is in force at once, like a Stop.
func (a *Actor) saveTelegram(ctx actor.Context, ops []ledger.Op, was map[string]messages.Surface) {
	for conv, before := range was {
		if now := a.chat.Surface(conv); now != before {
			ctx.Send(a.sessions[conv].pid, &messages.BindSurface{Surface: now})
		}
	}
	v := a.chat.View()
	a.cfg.Bus.Publish(&messages.TelegramChanged{View: v, At: a.cfg.Now()})
	sender := ctx.Sender()
	a.write(ctx, &ledger.Write{Owner: true, Ops: ops}, sender, func(err error) {
		if err != nil {
			reply(ctx, sender, storeFailed("The Telegram pairing", err))
			return
		}
		reply(ctx, sender, &messages.OwnerReply{Result: &v})
	})
}

// surfaceOf is where conv's refusals point the owner.
func (a *Actor) surfaceOf(conv string) messages.Surface { return a.chat.Surface(conv) }

// bound records in the book a binding the ledger already has, and tells
// subscribers.
func (a *Actor) bound(conv string) {
	if _, e := a.chat.Bind(conv, true, a.cfg.Now()); e != nil {
		a.cfg.Log.Warn("a conversation started from Telegram could not be bound", "conversation", conv, "err", e.Message)
		return
	}
	a.cfg.Bus.Publish(&messages.TelegramChanged{View: a.chat.View(), At: a.cfg.Now()})
}
