package doctor

import (
	"fmt"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/messages"
)

// telegramRow says whether a bot is configured, whether it reaches
// Telegram (when a running buddi serve says), and which chat is paired.
func telegramRow(c config.Config, o Options) messages.DoctorRow {
	if c.TelegramToken == "" {
		return row("telegram", OK, "not configured (optional): set BUDDI_TELEGRAM_TOKEN to follow conversations from Telegram.")
	}
	bot := "a bot token is set"
	if c.TelegramAPI != config.DefaultTelegramAPI {
		bot += " (Bot API at " + c.TelegramAPI + ")"
	}
	if o.Telegram == nil {
		return row("telegram", OK, bot+".")
	}
	v, live, err := o.Telegram()
	switch {
	case err != nil:
		return row("telegram", Warning, bot+"; the pairing cannot be read: "+err.Error()+".")
	case live && v.Bot != nil && !v.Bot.Polling && v.Bot.Problem != "":
		return row("telegram", Warning, bot+", but the bot does not reach Telegram: "+v.Bot.Problem+".")
	case !live:
		bot += " (buddi serve is not running)"
	case v.Bot != nil && v.Bot.Username != "":
		bot += "; the bot is @" + v.Bot.Username
	}
	if !v.Paired {
		return row("telegram", Warning, bot+"; no chat is paired: `buddi telegram pair` prints the link.")
	}
	name := v.Name
	if name == "" {
		name = fmt.Sprintf("chat %d", v.Chat)
	}
	return row("telegram", OK, fmt.Sprintf("%s; paired with %s, %d conversations bound.", bot, name, len(v.Bound)))
}
