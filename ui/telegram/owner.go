package telegram

import (
	"slices"

	tele "gopkg.in/telebot.v3"

	"github.com/buddi-dev/buddi/messages"
)

// isOwner reports whether c came from the paired owner in the paired chat.
// An update without a sender or a chat is nobody's.
func (b *Bot) isOwner(c tele.Context) bool {
	from, chat := c.Sender(), c.Chat()
	if from == nil || chat == nil {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.view.Paired && from.ID == b.view.User && chat.ID == b.view.Chat
}

// ownerOnly drops, without an answer, whatever is not the owner's.
func (b *Bot) ownerOnly(next tele.HandlerFunc) tele.HandlerFunc {
	return func(c tele.Context) error {
		if !b.isOwner(c) {
			return nil
		}
		return next(c)
	}
}

// setView adopts the pairing and bindings the actors hold. Pages sent of
// conversations no longer bound are forgotten, so a binding anew starts
// with a photo; once unpaired, the cards and photos of the old chat are.
func (b *Bot) setView(v messages.TelegramView) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !v.Paired || v.Chat != b.view.Chat {
		b.cards, b.photos = newCardBook(), newRecent(maxRecent)
	}
	b.view = v
	for conv := range b.pages {
		if !slices.Contains(v.Bound, conv) {
			delete(b.pages, conv)
		}
	}
}

// bound reports whether conv's steps go to the chat.
func (b *Bot) bound(conv string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.view.Paired && slices.Contains(b.view.Bound, conv)
}

// boundList is the bound conversations.
func (b *Bot) boundList() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.view.Bound)
}

// reply queues a text for the chat.
func (b *Bot) reply(text string) { b.out.put(&item{text: clipUnits(text, maxText)}) }

// maxText bounds a text message, in the UTF-16 units Telegram counts (its
// limit is 4,096).
const maxText = 4096

// recent remembers the conversation of the last photos sent, so a command
// sent as a reply to one acts on its conversation.
type recent struct {
	max   int
	conv  map[int]string
	order []int
}

// maxRecent is how many photos recent remembers.
const maxRecent = 256

func newRecent(n int) *recent { return &recent{max: n, conv: map[int]string{}} }

func (r *recent) put(id int, conv string) {
	if _, ok := r.conv[id]; !ok {
		r.order = append(r.order, id)
	}
	r.conv[id] = conv
	if len(r.order) > r.max {
		delete(r.conv, r.order[0])
		r.order = r.order[1:]
	}
}

func (r *recent) get(id int) (string, bool) {
	c, ok := r.conv[id]
	return c, ok
}
