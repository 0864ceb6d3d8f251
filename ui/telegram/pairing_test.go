package telegram_test

import (
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/audit"
	"github.com/buddi-dev/buddi/ui/telegram/telegramtest"
)

func TestPairingByCodeBindsTheSenderAndTheirChat(t *testing.T) {
	r := start(t, options{})
	r.pair(t)
	var v messages.TelegramView
	r.Must(t, "GET", "/api/telegram", nil).Decode(&v)
	if !v.Paired || v.User != owner.ID || v.Chat != owner.ID || v.Name != "@ada" {
		t.Fatalf("paired %+v, want the owner's account and private chat", v)
	}
	if v.Bot == nil || !v.Bot.Configured || v.Bot.Username != telegramtest.BotName {
		t.Fatalf("the bot's own state %+v", v.Bot)
	}
}

func TestAPairingCodeWorksOnce(t *testing.T) {
	r := start(t, options{})
	code := r.code(t)
	r.fake.Push(telegramtest.Text(owner, "/start "+code))
	r.awaitText(t, "Paired")
	// The same code again, from someone else, pairs nothing; the owner's
	// /browser after it is answered, so the bot has read both.
	r.fake.Push(telegramtest.Text(stranger, "/start "+code), telegramtest.Text(owner, "/browser"))
	r.awaitText(t, "Mode: sim")
	var v messages.TelegramView
	r.Must(t, "GET", "/api/telegram", nil).Decode(&v)
	if v.User != owner.ID {
		t.Fatalf("a used code paired user %d", v.User)
	}
	for _, c := range r.fake.Calls("sendMessage") {
		if c.Fields["chat_id"] != "4242" {
			t.Fatalf("the bot wrote to chat %s: %q", c.Fields["chat_id"], c.Fields["text"])
		}
	}
}

func TestUnpairingForgetsTheChatAndItsBindings(t *testing.T) {
	r := start(t, options{})
	r.pair(t)
	r.bind(t, "c1")
	r.Must(t, "DELETE", "/api/telegram/pair", nil)
	var v messages.TelegramView
	r.Must(t, "GET", "/api/telegram", nil).Decode(&v)
	if v.Paired || len(v.Bound) != 0 {
		t.Fatalf("after unpairing: %+v", v)
	}
	rep, err := r.Do("POST", "/api/telegram/bind", r.Owner, messages.OwnerBody{Conversation: "c1"})
	if err != nil || rep.Code() != messages.CodeNotPaired {
		t.Fatalf("binding with no chat paired: %v %v", rep, err)
	}
}

// Failed codes count in the shared limiter: a sender past the limit is not
// heard even with the right code; the owner still pairs with it.
func TestASenderOfWrongCodesIsNotHeardAnyMore(t *testing.T) {
	r := start(t, options{})
	code := r.code(t)
	for i := range 5 {
		r.fake.Push(telegramtest.Text(stranger, "/start wrong-code-"+itoa(i+1)))
	}
	r.fake.Push(telegramtest.Text(stranger, "/start "+code), telegramtest.Text(owner, "/start "+code))
	r.awaitText(t, "Paired")
	var v messages.TelegramView
	r.Must(t, "GET", "/api/telegram", nil).Decode(&v)
	if v.User != owner.ID {
		t.Fatalf("paired with %d after the stranger's five wrong codes, want the owner", v.User)
	}
}

// Wrong pairing codes leave a line each on the audit trail while the
// limiter counts them, naming the sender but never the code; of the flood
// past the sender's tries only the first refusal is kept.
func TestFailedPairingsAreAuditedWithoutTheirCodes(t *testing.T) {
	r := start(t, options{})
	code := r.code(t)
	const flood = 30
	for i := range flood {
		r.fake.Push(telegramtest.Text(stranger, "/start wrong-code-"+itoa(i+1)))
	}
	r.fake.Push(telegramtest.Text(owner, "/start "+code))
	r.awaitText(t, "Paired")
	r.Stop(t)
	list, err := audit.Read(r.Dir, messages.AuditFilter{Limit: messages.AuditMaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	codes := map[messages.Code]int{}
	for _, l := range list {
		if l.Action != "pair_telegram_failed" {
			continue
		}
		if l.Kind != messages.AuditControl || l.Detail != "telegram from user 9999 @mallory" || l.At.IsZero() {
			t.Errorf("the line %+v does not name the stranger as a control with a time", l)
		}
		if strings.Contains(l.Detail, "wrong-code") {
			t.Errorf("the line %+v holds the code sent", l)
		}
		codes[l.Code]++
	}
	if codes[messages.CodeWrongCode] != 5 || codes[messages.CodeTooManyAttempts] != 1 || len(codes) != 2 {
		t.Fatalf("%d wrong codes left lines by code %v, want 5 wrong_code and one too_many_attempts", flood, codes)
	}
}
