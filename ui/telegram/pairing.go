package telegram

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"strconv"
	"time"

	tele "gopkg.in/telebot.v3"

	"github.com/buddi-dev/buddi/messages"
)

// pairCode is the one pairing code that holds: its hash and its end.
type pairCode struct {
	hash    [sha256.Size]byte
	expires time.Time
}

// LimitPrefix starts the key a sender's failed codes count under in the
// shared limiter. Only per sender: a limit for everyone together would let
// any stranger lock the owner out of pairing, and a code of 192 random bits
// cannot be guessed in the tries a sender gets.
const LimitPrefix = "telegram:"

// Link makes a new one-time pairing code, replacing any earlier one, and
// returns the link that opens the bot with it. It needs the bot's @name,
// which Telegram gives once the bot reached it.
func (b *Bot) Link() (*messages.TelegramLink, *messages.Error) {
	raw := make([]byte, 24)
	if _, err := rand.Read(raw); err != nil {
		return nil, messages.Errorf(messages.CodeInternal, "No pairing code could be made: %v.", err)
	}
	code := base64.RawURLEncoding.EncodeToString(raw) // 32 of the characters a start parameter allows
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.me == "" {
		why := "it has not reached Telegram yet"
		if b.problem != "" {
			why += " (" + b.problem + ")"
		}
		return nil, messages.Errorf(messages.CodeNoTelegram, "The bot has no name to link to: %s; check BUDDI_TELEGRAM_TOKEN and the network, then ask for a link again.", why)
	}
	expires := b.clock.Now().Add(b.tune.CodeLife)
	b.code = &pairCode{hash: sha256.Sum256([]byte(code)), expires: expires}
	return &messages.TelegramLink{Link: "https://t.me/" + b.me + "?start=" + code, Expires: expires}, nil
}

// onStart is /start: with a code, a pairing attempt from anyone in a
// private chat; without one, the owner's greeting. A wrong code is counted
// and answered with silence, like everything else from a stranger.
func (b *Bot) onStart(c tele.Context) error {
	from, chat := c.Sender(), c.Chat()
	if from == nil || chat == nil || chat.Type != tele.ChatPrivate || from.IsBot {
		return nil
	}
	code := c.Message().Payload
	if code == "" {
		if b.isOwner(c) {
			b.reply(help)
		}
		return nil
	}
	who := LimitPrefix + strconv.FormatInt(from.ID, 10)
	if ok, _, first := b.cfg.Limiter.Check(who); !ok {
		// Of a run of refused codes only the first is kept: a flood of
		// them would push the owner's own lines out of the trail's files.
		if first {
			b.pairFailed(from, messages.CodeTooManyAttempts)
		}
		return nil
	}
	if !b.takeCode(code) {
		b.cfg.Limiter.Fail(who)
		b.log.Info("a wrong or stale pairing code was sent", "from", from.ID)
		b.pairFailed(from, messages.CodeWrongCode)
		return nil
	}
	b.cfg.Limiter.Reset(who)
	r := b.ask(&messages.PairTelegram{User: from.ID, Chat: chat.ID, Name: name(from)})
	if r.Error != nil {
		b.log.Warn("pairing failed", "err", r.Error.Message)
		return nil
	}
	if v, ok := r.Result.(*messages.TelegramView); ok {
		b.setView(*v)
	}
	b.reply("Paired: this chat now belongs to buddi's owner. Conversations bound to it get a photo per step here; send /browser for the state of the browser.")
	return nil
}

// takeCode consumes the pending code when code matches it and holds.
func (b *Bot) takeCode(code string) bool {
	h := sha256.Sum256([]byte(code))
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.code
	if p == nil || !b.clock.Now().Before(p.expires) || subtle.ConstantTimeCompare(h[:], p.hash[:]) != 1 {
		return false
	}
	b.code = nil
	return true
}

// name is how the owner will recognise the account: its @name, else its
// first name.
func name(u *tele.User) string {
	if u.Username != "" {
		return "@" + u.Username
	}
	return clipRunes(u.FirstName, 64)
}

// pairFailed puts a failed pairing on the audit trail: the sender's
// Telegram id and name, never the code they sent.
func (b *Bot) pairFailed(from *tele.User, code messages.Code) {
	b.cfg.Record(&messages.AuditRecord{At: b.clock.Now().UTC(), Kind: messages.AuditControl, Action: "pair_telegram_failed",
		Code: code, Detail: messages.Clip("telegram from user "+strconv.FormatInt(from.ID, 10)+" "+name(from), 240)})
}
