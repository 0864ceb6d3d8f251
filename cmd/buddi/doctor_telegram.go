package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/apiclient"
	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/messages"
)

// telegramRow says whether a bot is configured, whether it reaches
// Telegram (asked of the running buddi serve), and which chat is paired
// (from buddi serve, or from the store when it is not running).
func telegramRow(c config.Config) row {
	if c.TelegramToken == "" {
		return row{"telegram", ok, "not configured (optional): set BUDDI_TELEGRAM_TOKEN to follow conversations from Telegram."}
	}
	bot := "a bot token is set"
	if c.TelegramAPI != config.DefaultTelegramAPI {
		bot += " (Bot API at " + c.TelegramAPI + ")"
	}
	v, live, err := telegramView(c)
	switch {
	case err != nil:
		return row{"telegram", warning, bot + "; the pairing cannot be read: " + err.Error() + "."}
	case live && v.Bot != nil && !v.Bot.Polling && v.Bot.Problem != "":
		return row{"telegram", warning, bot + ", but the bot does not reach Telegram: " + v.Bot.Problem + "."}
	case !live:
		bot += " (buddi serve is not running)"
	case v.Bot != nil && v.Bot.Username != "":
		bot += "; the bot is @" + v.Bot.Username
	}
	if !v.Paired {
		return row{"telegram", warning, bot + "; no chat is paired: `buddi telegram pair` prints the link."}
	}
	return row{"telegram", ok, fmt.Sprintf("%s; paired with %s, %d conversations bound.", bot, or(v.Name, fmt.Sprintf("chat %d", v.Chat)), len(v.Bound))}
}

// telegramView reads the pairing from the running buddi serve (live), else
// from the store.
func telegramView(c config.Config) (v messages.TelegramView, live bool, err error) {
	if inst, err := daemon.ReadInstance(c.DataDir); err == nil && running(inst.Addr) {
		token, err := daemon.ReadOwnerToken(c.DataDir)
		if err != nil {
			return v, true, err
		}
		cl, err := apiclient.New("http://" + inst.Addr)
		if err != nil {
			return v, true, err
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		v, err = cl.Owner(token).Telegram(ctx)
		return v, true, err
	}
	if _, err := os.Stat(ledger.Path(c.DataDir)); err != nil {
		return v, false, nil // no store yet: nothing is paired
	}
	st, err := ledger.Open(ledger.Path(c.DataDir))
	if errors.Is(err, ledger.ErrLocked) {
		return v, false, errors.New("the store is in use by another process")
	}
	if err != nil {
		return v, false, err
	}
	defer st.Close()
	p, found, err := st.Telegram()
	if err != nil || !found {
		return v, false, err
	}
	bound, err := st.Bound()
	return messages.TelegramView{Paired: true, User: p.User, Chat: p.Chat, Name: p.Name, PairedAt: p.PairedAt,
		Bound: make([]string, len(bound))}, false, err
}
