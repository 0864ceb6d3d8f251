package telegram

import (
	tele "gopkg.in/telebot.v3"

	"github.com/buddi-dev/buddi/messages"
)

// step turns a bound conversation's step into the chat's next photo of it,
// or into words when its picture may not leave. A read of a page already
// sent is skipped; a failed step is always reported.
func (b *Bot) step(s *messages.StepTaken) {
	if !b.bound(s.Conversation) || !b.newPage(s) {
		return
	}
	link, button := b.takeOver(s.Agent, s.Conversation)
	local := ""
	if !button {
		local = link
	}
	if ok, why := b.allowed(s); !ok {
		b.out.put(&item{conv: s.Conversation, text: wordsOnly(s, why, local)})
		return
	}
	it := &item{conv: s.Conversation, photo: s.Picture, text: caption(s, local)}
	if button {
		it.markup = takeOverButton(link)
		it.plain = caption(s, link) // if Telegram refuses the button
	}
	conv := s.Conversation
	it.sent = func(m *tele.Message) {
		b.mu.Lock()
		b.photos.put(m.ID, conv)
		b.mu.Unlock()
	}
	b.out.put(it)
}

// newPage records the step's page as the conversation's latest, and says
// whether the step is worth a message: it failed, or shows another page.
func (b *Bot) newPage(s *messages.StepTaken) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	same := s.Page != "" && b.pages[s.Conversation] == s.Page
	b.pages[s.Conversation] = s.Page
	return s.Code != "" || !same
}
