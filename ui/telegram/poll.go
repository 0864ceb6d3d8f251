package telegram

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	tele "gopkg.in/telebot.v3"
)

// allowedUpdates are the kinds of update the bot asks for.
var allowedUpdates = []string{"message", "callback_query"}

// pollLoop asks Telegram who the bot is, then long-polls getUpdates and
// handles each update in turn. Every failure (the network, a 5xx, a 409
// Conflict with another poller, a garbled answer) waits a capped
// exponential backoff before the next call: the loop never spins. An empty
// answer that came back well before the poll's timeout (by the wall
// clock) counts as a failure too: a server that does not hold the poll
// would otherwise be asked without pause.
func (b *Bot) pollLoop(ctx context.Context) {
	bo := newBackoff(b.tune.BackoffMin, b.tune.BackoffMax)
	offset := 0
	for ctx.Err() == nil {
		err := b.whoAmI()
		if err == nil {
			var n int
			n, err = b.pollOnce(&offset)
			if err == nil && n == 0 && time.Since(b.lastPoll) < b.tune.Poll/4 {
				err = fmt.Errorf("getUpdates answered at once with nothing")
			}
		}
		if err == nil {
			bo.ok()
			b.polled(nil)
			continue
		}
		if ctx.Err() != nil {
			return
		}
		b.polled(err)
		if b.clock.Sleep(ctx, bo.fail()) != nil {
			return
		}
	}
}

// whoAmI asks getMe once, until it answered: the pairing link needs the
// bot's @name.
func (b *Bot) whoAmI() error {
	b.mu.Lock()
	known := b.me != ""
	b.mu.Unlock()
	if known {
		return nil
	}
	var me struct {
		Result *tele.User `json:"result"`
	}
	if err := b.call("getMe", nil, &me); err != nil {
		return err
	}
	if me.Result == nil || me.Result.Username == "" || !me.Result.IsBot {
		return fmt.Errorf("%w: getMe named no bot", ErrGarbled)
	}
	b.mu.Lock()
	b.me = me.Result.Username
	b.tb.Me = me.Result
	b.mu.Unlock()
	return nil
}

// pollOnce reads one batch of updates and handles those not seen yet. Each
// update is read on its own: one the bot cannot read is skipped (past its
// id, when it has one) rather than holding the rest back for ever.
func (b *Bot) pollOnce(offset *int) (int, error) {
	b.lastPoll = time.Now() // the wall clock: a held poll takes real time whatever clock paces the bot
	allowed, _ := json.Marshal(allowedUpdates)
	params := map[string]string{"offset": strconv.Itoa(*offset), "timeout": strconv.Itoa(int(b.tune.Poll.Seconds())),
		"allowed_updates": string(allowed)}
	var got struct {
		Result []json.RawMessage `json:"result"`
	}
	if err := b.call("getUpdates", params, &got); err != nil {
		return 0, err
	}
	if len(got.Result) > 0 {
		// Telegram answered with updates: the bot polls, and says so before
		// it handles them (a pairing among them tells the owner at once).
		b.polled(nil)
	}
	for _, raw := range got.Result {
		b.update(raw, offset)
	}
	return len(got.Result), nil
}

// update reads and handles one raw update unless it was seen (its id is
// below offset), and moves offset past it.
func (b *Bot) update(raw json.RawMessage, offset *int) {
	var id struct {
		ID *int `json:"update_id"`
	}
	if json.Unmarshal(raw, &id) != nil || id.ID == nil || *id.ID < *offset || *id.ID == math.MaxInt {
		return // unreadable, or seen: a server that repeats itself does not repeat the bot
	}
	*offset = *id.ID + 1
	var u tele.Update
	if err := json.Unmarshal(raw, &u); err != nil {
		b.log.Info("an update could not be read; skipped", "update", *id.ID, "err", err)
		return
	}
	b.handle(u)
}

// call makes one Bot API call and decodes its answer.
func (b *Bot) call(method string, params any, out any) error {
	return guard(func() error {
		data, err := b.tb.Raw(method, params)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("%w: %s: %w", ErrGarbled, method, err)
		}
		return nil
	})
}

// handle runs telebot's dispatch for one update; a panic in it is logged
// and the update dropped.
func (b *Bot) handle(u tele.Update) {
	if err := guard(func() error { b.tb.ProcessUpdate(u); return nil }); err != nil {
		b.log.Warn("an update could not be handled", "update", u.ID, "err", err)
	}
}

// polled records how the last poll went, for the owner's status.
func (b *Bot) polled(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.polling = err == nil
	b.problem = ""
	if err != nil {
		b.problem = problemOf(err)
	}
}

// problemOf says in one sentence what a failed poll means.
func problemOf(err error) string {
	s := err.Error()
	switch {
	case strings.Contains(s, "(401)"):
		return "Telegram refused the token (401); check BUDDI_TELEGRAM_TOKEN"
	case strings.Contains(s, "(409)"):
		return "another program polls this bot (409 Conflict); stop it, or delete its webhook"
	}
	return "the last call to the Bot API failed: " + clipRunes(s, 200)
}
