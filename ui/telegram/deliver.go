package telegram

import (
	"bytes"
	"context"
	"time"

	tele "gopkg.in/telebot.v3"
)

// maxRetries bounds the tries of one item that fails for the network or a
// 5xx; a 429 is waited out however often it comes.
const maxRetries = 3

// sendLoop delivers the outbox, one item at a time and at most one per
// pace, honouring retry_after. It owns the outbox's delivery.
func (b *Bot) sendLoop(ctx context.Context) {
	var next time.Time // when the chat may take the next message
	for {
		if !b.waitForItem(ctx) {
			return
		}
		if wait := next.Sub(b.clock.Now()); wait > 0 {
			if b.clock.Sleep(ctx, wait) != nil {
				return
			}
		}
		it, ok := b.out.take() // after the wait: the newest step of each conversation
		if !ok {
			continue
		}
		chat, paired := b.chat()
		if !paired {
			continue // unpaired meanwhile: nobody to send it to
		}
		next = b.sendOne(chat, it)
	}
}

// sendOne delivers it, deals with a failure, and says when the chat may
// take the next message.
func (b *Bot) sendOne(chat int64, it *item) (next time.Time) {
	msg, err := b.deliver(chat, it)
	next = b.clock.Now().Add(b.tune.Pace)
	switch f, wait := classify(err); f {
	case failNone:
		if it.sent != nil && msg != nil {
			it.sent(msg)
		}
	case failFlood:
		b.log.Info("telegram asked to slow down", "retryAfter", wait)
		next = b.clock.Now().Add(wait)
		b.out.again(it)
	case failButton:
		b.log.Info("telegram refused a button; sending without it", "err", err)
		it.markup = nil
		if it.plain != "" {
			it.text = it.plain
		}
		b.out.again(it)
	case failTransient:
		it.retries++
		if it.retries >= maxRetries {
			b.log.Warn("a message to telegram failed; dropped", "err", err, "tries", it.retries)
			return next
		}
		next = b.clock.Now().Add(time.Duration(1<<it.retries) * time.Second)
		b.out.again(it)
	default:
		b.log.Warn("telegram refused a message; dropped", "err", err)
	}
	return next
}

// waitForItem waits until the outbox holds something; false once ctx ends.
func (b *Bot) waitForItem(ctx context.Context) bool {
	for !b.out.waiting() {
		select {
		case <-b.out.ready:
		case <-ctx.Done():
			return false
		}
	}
	return ctx.Err() == nil
}

// deliver sends one item through telebot.
func (b *Bot) deliver(chat int64, it *item) (msg *tele.Message, err error) {
	to := tele.ChatID(chat)
	opts := &tele.SendOptions{ReplyMarkup: it.markup, DisableWebPagePreview: true}
	err = guard(func() error {
		var err error
		switch {
		case it.edit != nil:
			msg, err = b.tb.Edit(it.edit, it.text, opts)
		case it.photo != nil:
			msg, err = b.tb.Send(to, &tele.Photo{File: tele.FromReader(bytes.NewReader(it.photo)), Caption: it.text}, opts)
		default:
			msg, err = b.tb.Send(to, it.text, opts)
		}
		return err
	})
	return msg, err
}
