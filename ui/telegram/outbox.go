package telegram

import (
	"sync"

	tele "gopkg.in/telebot.v3"
)

// item is one message waiting for the chat: a text (a reply, a card), an
// edit of a card, or a step of a conversation (its photo, or its words
// when the picture may not leave).
type item struct {
	conv    string // a step's conversation: a newer step replaces it; "" for the rest
	text    string // the text, or the photo's caption
	photo   []byte // a JPEG; nil for a text
	markup  *tele.ReplyMarkup
	plain   string              // the text to send instead if the button is refused
	edit    *tele.StoredMessage // edit this message's text instead of sending
	sent    func(*tele.Message) // called with what Telegram made of it
	retries int
}

// maxTexts bounds the texts waiting; past it the oldest is dropped. Texts
// are replies and cards, a few at a time; a flood of them is the owner's
// own, and the newest matter.
const maxTexts = 64

// outbox holds what waits for the chat: texts in order, and at most one
// step per conversation (the newest), conversations in the order their
// steps first waited.
type outbox struct {
	mu      sync.Mutex
	texts   []*item
	steps   map[string]*item
	order   []string // conversations with a step waiting
	ready   chan struct{}
	dropped int // texts dropped for room, steps replaced by newer ones
}

func newOutbox() *outbox {
	return &outbox{steps: map[string]*item{}, ready: make(chan struct{}, 1)}
}

// put queues it: a step replaces its conversation's waiting step.
func (o *outbox) put(it *item) {
	o.mu.Lock()
	switch {
	case it.conv != "" && o.steps[it.conv] != nil:
		o.steps[it.conv] = it
		o.dropped++
	case it.conv != "":
		o.steps[it.conv] = it
		o.order = append(o.order, it.conv)
	default:
		if len(o.texts) >= maxTexts {
			o.texts = o.texts[1:]
			o.dropped++
		}
		o.texts = append(o.texts, it)
	}
	o.mu.Unlock()
	o.wake()
}

// again puts it back at the front after a failed try, unless a newer step
// of its conversation came meanwhile (the newer one goes instead).
func (o *outbox) again(it *item) {
	o.mu.Lock()
	switch {
	case it.conv == "":
		o.texts = append([]*item{it}, o.texts...)
	case o.steps[it.conv] == nil:
		o.steps[it.conv] = it
		o.order = append([]string{it.conv}, o.order...)
	}
	o.mu.Unlock()
	o.wake()
}

// take removes the next item: texts first, then the oldest conversation's
// step. ok is false when nothing waits.
func (o *outbox) take() (it *item, ok bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.texts) > 0 {
		it, o.texts = o.texts[0], o.texts[1:]
		return it, true
	}
	for len(o.order) > 0 {
		conv := o.order[0]
		o.order = o.order[1:]
		if it = o.steps[conv]; it != nil {
			delete(o.steps, conv)
			return it, true
		}
	}
	return nil, false
}

// Dropped is how many items gave way to newer ones.
func (o *outbox) Dropped() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.dropped
}

func (o *outbox) wake() {
	select {
	case o.ready <- struct{}{}:
	default:
	}
}

// waiting reports whether anything waits.
func (o *outbox) waiting() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.texts) > 0 || len(o.order) > 0
}
