package telegram

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	tele "gopkg.in/telebot.v3"

	"github.com/buddi-dev/buddi/messages"
)

// A card is a request waiting for the owner (a task an agent asked for, a
// site it wants to open) posted with inline buttons. A button's data names
// the card by a random id the bot keeps, never the request itself, so data
// that is forged or outlived its card finds nothing.
type card struct {
	id      string
	subject string // "task/<conv>" or "site/<conv>/<site>"
	conv    string
	site    string // "" for a task
	text    string
	msg     *tele.StoredMessage // once Telegram took it
}

// Choices a button can carry, by kind of card.
var (
	taskChoices = []choice{{"start", "Start it"}, {"reject", "Reject"}}
	siteChoices = []choice{{messages.DecideOnce, "Once"}, {messages.DecideAlways, "Always"}, {messages.DecideReject, "Reject"}}
)

type choice struct{ data, label string }

// maxCards bounds the cards kept; past it the oldest is forgotten (its
// buttons then answer that it is no longer current).
const maxCards = 128

// cardBook is the cards waiting for an answer, by id and by subject.
type cardBook struct {
	byID      map[string]*card
	bySubject map[string]*card
	order     []string
}

func newCardBook() *cardBook {
	return &cardBook{byID: map[string]*card{}, bySubject: map[string]*card{}}
}

func (cb *cardBook) add(c *card) {
	cb.byID[c.id], cb.bySubject[c.subject] = c, c
	cb.order = append(cb.order, c.id)
	if len(cb.order) > maxCards {
		cb.remove(cb.byID[cb.order[0]])
	}
}

func (cb *cardBook) remove(c *card) {
	if c == nil {
		return
	}
	delete(cb.byID, c.id)
	if cb.bySubject[c.subject] == c {
		delete(cb.bySubject, c.subject)
	}
	for i, id := range cb.order {
		if id == c.id {
			cb.order = append(cb.order[:i], cb.order[i+1:]...)
			break
		}
	}
}

// dataPrefix starts every button's data: a version, so data of an older
// layout is recognised as stale.
const dataPrefix = "b1:"

// taskChanged posts a card for a task request, or closes its card once the
// request was decided anywhere.
func (b *Bot) taskChanged(t *messages.TaskView) {
	subject := "task/" + t.Conversation
	if t.State != messages.TaskPending {
		b.closeCard(subject, "Decided: the task is "+t.State+".")
		return
	}
	text := fmt.Sprintf("%s asks for a browser task in conversation %s:\n%s\nUp to %d steps and %d minutes.",
		t.Agent, t.Conversation, clipRunes(t.Description, 1000), t.MaxSteps, int(t.Lifetime/time.Minute))
	b.postCard(&card{subject: subject, conv: t.Conversation, text: text}, taskChoices)
}

// siteAsked posts a card for a site request.
func (b *Bot) siteAsked(r *messages.SiteRequest) {
	text := fmt.Sprintf("%s wants to open %s in conversation %s:\n%s",
		r.Agent, r.Site, r.Conversation, clipRunes(r.URL, 300))
	if r.App != "" {
		name := r.App
		if r.AppName != "" {
			name = r.AppName
		}
		text = fmt.Sprintf("Use %s on your computer? %s asks to open the app %s in conversation %s.",
			name, r.Agent, r.App, r.Conversation)
	}
	b.postCard(&card{subject: "site/" + r.Conversation + "/" + r.Site, conv: r.Conversation, site: r.Site, text: text}, siteChoices)
}

// postCard queues c with its buttons, unless its subject has a card already
// or no chat is paired.
func (b *Bot) postCard(c *card, choices []choice) {
	id := make([]byte, 6)
	if _, err := rand.Read(id); err != nil {
		return
	}
	c.id = hex.EncodeToString(id)
	b.mu.Lock()
	if !b.view.Paired || b.cards.bySubject[c.subject] != nil {
		b.mu.Unlock()
		return
	}
	b.cards.add(c)
	b.mu.Unlock()
	row := make([]tele.InlineButton, 0, len(choices))
	for _, ch := range choices {
		row = append(row, tele.InlineButton{Text: ch.label, Data: dataPrefix + c.id + ":" + ch.data})
	}
	b.out.put(&item{text: c.text, markup: &tele.ReplyMarkup{InlineKeyboard: [][]tele.InlineButton{row}},
		sent: func(m *tele.Message) {
			b.mu.Lock()
			c.msg = &tele.StoredMessage{MessageID: fmt.Sprint(m.ID), ChatID: m.Chat.ID}
			b.mu.Unlock()
		}})
}

// closeCard forgets subject's card and, if Telegram took it, edits it to
// say how it ended (its buttons go).
func (b *Bot) closeCard(subject, outcome string) {
	b.mu.Lock()
	c := b.cards.bySubject[subject]
	b.cards.remove(c)
	var msg *tele.StoredMessage
	if c != nil {
		msg = c.msg
	}
	b.mu.Unlock()
	if msg != nil {
		b.out.put(&item{edit: msg, text: c.text + "\n" + outcome})
	}
}

// onCallback answers a button: the owner's decision, sent to the actors,
// and answered with answerCallbackQuery. Data that is forged, stale or of
// another kind of card decides nothing.
func (b *Bot) onCallback(c tele.Context) error {
	cb := c.Callback()
	if cb == nil {
		return nil
	}
	cd, msg, ok := b.decision(cb.Data)
	if !ok {
		b.answer(cb, "This card is no longer current; nothing was done.")
		return nil
	}
	r := b.ask(msg)
	if r.Error != nil {
		b.answer(cb, r.Error.Message)
		if r.Error.Code == messages.CodeNoPendingTask || r.Error.Code == messages.CodeNoPendingApproval {
			b.closeCard(cd.subject, "No longer waiting.")
		}
		return nil
	}
	done := decided(msg)
	b.answer(cb, done)
	b.closeCard(cd.subject, done)
	return nil
}

// decision reads a button's data: the card it names and the owner message
// its choice makes.
func (b *Bot) decision(data string) (*card, any, bool) {
	rest, ok := strings.CutPrefix(data, dataPrefix)
	id, pick, ok2 := strings.Cut(rest, ":")
	if !ok || !ok2 {
		return nil, nil, false
	}
	b.mu.Lock()
	cd := b.cards.byID[id]
	b.mu.Unlock()
	switch {
	case cd == nil:
		return nil, nil, false
	case cd.site == "" && pick == "start":
		return cd, &messages.DecideTask{Conversation: cd.conv, Accept: true, Surface: messages.SurfaceTelegram}, true
	case cd.site == "" && pick == "reject":
		return cd, &messages.DecideTask{Conversation: cd.conv, Surface: messages.SurfaceTelegram}, true
	case cd.site != "" && (pick == messages.DecideOnce || pick == messages.DecideAlways || pick == messages.DecideReject):
		return cd, &messages.DecideSite{Conversation: cd.conv, Site: cd.site, Decision: pick}, true
	}
	return nil, nil, false
}

// decided is what the owner reads once a decision is in force.
func decided(msg any) string {
	switch m := msg.(type) {
	case *messages.DecideTask:
		if m.Accept {
			return "Started from Telegram: its steps will come to this chat."
		}
		return "Rejected."
	case *messages.DecideSite:
		switch m.Decision {
		case messages.DecideOnce:
			return "Allowed once, in this conversation."
		case messages.DecideAlways:
			return "Allowed always."
		}
		return "Rejected."
	}
	return "Done."
}

// maxAnswer bounds answerCallbackQuery's text (Telegram's limit is 200).
const maxAnswer = 190

// answer answers a button press, at once: it does not count toward the
// chat's pace.
func (b *Bot) answer(cb *tele.Callback, text string) {
	err := guard(func() error {
		return b.tb.Respond(cb, &tele.CallbackResponse{Text: clipRunes(text, maxAnswer)})
	})
	if err != nil {
		b.log.Info("a button's answer did not reach telegram", "err", err)
	}
}
