package ui

import (
	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/messages"
)

// TelegramBot is what the owner API needs of the Telegram surface: a
// pairing link, and what the bot knows of itself. *telegram.Bot satisfies
// it; nil means no bot is configured.
type TelegramBot interface {
	Link() (*messages.TelegramLink, *messages.Error)
	State() messages.TelegramBot
}

// noBot is the refusal of a pairing while no bot runs.
var noBot = messages.Errorf(messages.CodeNoTelegram,
	"No Telegram bot is configured; set BUDDI_TELEGRAM_TOKEN to your bot's token from @BotFather and restart buddi.")

// telegramRoute serves the two owner routes that need the bot itself (a
// pairing link, and the state with the bot's own); false for any other.
// Unpairing and binding go to the actors like every other control.
func (s *Server) telegramRoute(ctx *fasthttp.RequestCtx, key string) bool {
	switch key {
	case "POST /api/telegram/pair":
		if s.cfg.Telegram == nil {
			writeError(ctx, noBot)
			return true
		}
		link, e := s.cfg.Telegram.Link()
		if e != nil {
			writeError(ctx, e)
			return true
		}
		writeOK(ctx, link)
	case "GET /api/telegram":
		c, cancel := deadline(ownerDeadline)
		defer cancel()
		r := s.cfg.Actors.Owner(c, &messages.GetTelegram{})
		if r.Error != nil {
			writeError(ctx, r.Error)
			return true
		}
		v, ok := r.Result.(*messages.TelegramView)
		if !ok {
			writeError(ctx, &messages.Error{Code: messages.CodeInternal, Message: "buddi gave an unexpected answer."})
			return true
		}
		out := *v
		bot := messages.TelegramBot{}
		if s.cfg.Telegram != nil {
			bot = s.cfg.Telegram.State()
		}
		out.Bot = &bot
		writeOK(ctx, &out)
	default:
		return false
	}
	return true
}
