// Package chat holds the owner's paired Telegram chat and the
// conversations bound to it: which surface each conversation answers on.
// The controller stores both in the ledger and tells a session when its
// conversation's surface changes. It holds no lock; the controller actor is
// its only user.
package chat

import (
	"sort"
	"time"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// Book is the pairing and the bindings.
type Book struct {
	pair  *ledger.Telegram
	bound map[string]time.Time // conversation → when it was bound
}

// New returns a book over what the ledger holds.
func New(pair *ledger.Telegram, bound []ledger.Bound) *Book {
	b := &Book{pair: pair, bound: map[string]time.Time{}}
	for _, x := range bound {
		b.bound[x.Conversation] = x.At
	}
	return b
}

// Paired reports whether a chat is paired.
func (b *Book) Paired() bool { return b.pair != nil }

// Surface is where conv is bound: Telegram while it is bound and a chat is
// paired, nothing ("") otherwise, when each call answers on its own
// surface.
func (b *Book) Surface(conv string) messages.Surface {
	if _, ok := b.bound[conv]; ok && b.pair != nil {
		return messages.SurfaceTelegram
	}
	return ""
}

// Bound reports whether conv is bound, paired chat or not.
func (b *Book) Bound(conv string) bool {
	_, ok := b.bound[conv]
	return ok
}

// CheckPair refuses a pairing that cannot name a private chat: Telegram
// gives a private chat its user's id.
func CheckPair(m *messages.PairTelegram) *messages.Error {
	if m.User <= 0 || m.Chat != m.User {
		return messages.Errorf(messages.CodeBadInput, "A pairing needs the Telegram user and their private chat with the bot; send the code from a private chat.")
	}
	return nil
}

// Pair records the chat; the bindings stay, now bound to it.
func (b *Book) Pair(m *messages.PairTelegram, at time.Time) []ledger.Op {
	p := ledger.Telegram{User: m.User, Chat: m.Chat, Name: m.Name, PairedAt: at}
	b.pair = &p
	return []ledger.Op{ledger.Put(ledger.TelegramKey(), p)}
}

// Unpair forgets the chat and every binding, and returns the conversations
// that were bound.
func (b *Book) Unpair() (ops []ledger.Op, unbound []string) {
	ops = []ledger.Op{ledger.Delete(ledger.TelegramKey())}
	for conv := range b.bound {
		ops = append(ops, ledger.Delete(ledger.BoundKey(conv)))
		unbound = append(unbound, conv)
	}
	sort.Strings(unbound)
	b.pair, b.bound = nil, map[string]time.Time{}
	return ops, unbound
}

// Bind binds or unbinds conv. Binding needs a paired chat.
func (b *Book) Bind(conv string, bound bool, at time.Time) ([]ledger.Op, *messages.Error) {
	if e := messages.CheckConversation(conv); e != nil {
		return nil, e
	}
	if !bound {
		delete(b.bound, conv)
		return []ledger.Op{ledger.Delete(ledger.BoundKey(conv))}, nil
	}
	if b.pair == nil {
		return nil, NotPaired()
	}
	b.bound[conv] = at
	return []ledger.Op{BoundOp(conv, at)}, nil
}

// BoundOp is the ledger write that binds conv, for a write that carries
// more (a task started from Telegram); Bind then updates the book once it
// landed.
func BoundOp(conv string, at time.Time) ledger.Op {
	return ledger.Put(ledger.BoundKey(conv), ledger.Bound{Conversation: conv, At: at})
}

// View is the pairing and the bindings as the owner sees them.
func (b *Book) View() messages.TelegramView {
	v := messages.TelegramView{Bound: make([]string, 0, len(b.bound))}
	if p := b.pair; p != nil {
		v.Paired, v.User, v.Chat, v.Name, v.PairedAt = true, p.User, p.Chat, p.Name, p.PairedAt
	}
	for conv := range b.bound {
		v.Bound = append(v.Bound, conv)
	}
	sort.Strings(v.Bound)
	return v
}

// NotPaired is the refusal of a binding while no chat is paired.
func NotPaired() *messages.Error {
	return messages.Errorf(messages.CodeNotPaired, "No Telegram chat is paired; pair one first (`buddi telegram pair`), then bind the conversation.")
}

// Move hands conv's binding to its new id (the conversation moved) and
// returns the writes that store it; none when from was not bound.
func (b *Book) Move(from, to string) []ledger.Op {
	at, ok := b.bound[from]
	if !ok {
		return nil
	}
	delete(b.bound, from)
	b.bound[to] = at
	return []ledger.Op{ledger.Delete(ledger.BoundKey(from)), BoundOp(to, at)}
}
