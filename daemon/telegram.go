package daemon

import (
	"context"
	"fmt"

	"github.com/buddi-dev/buddi/ui/telegram"
)

// newTelegram builds the Telegram bot when a token is configured; nil
// otherwise. It starts once the HTTP surface serves.
func (d *Daemon) newTelegram() (*telegram.Bot, error) {
	c := d.opts.Config
	if c.TelegramToken == "" {
		return nil, nil
	}
	bot, err := telegram.New(telegram.Config{
		Token: c.TelegramToken, API: c.TelegramAPI, Actors: d.gateway, Pages: d.egress.policy,
		Mode: d.mode.Name, AppListed: func(id string) bool { return d.apps().Allows(id) }, PublicOrigin: c.PublicOrigin, Addr: d.addr, Limiter: d.limiter,
		Log: d.opts.Log, Clock: d.opts.TelegramClock, Tuning: d.opts.Telegram,
	})
	if err != nil {
		return nil, fmt.Errorf("daemon: %w", err)
	}
	return bot, nil
}

// closeTelegram stops the bot first among the surfaces: its requests in
// flight end at once.
func (d *Daemon) closeTelegram(ctx context.Context) error {
	if d.telegram == nil {
		return nil
	}
	return d.telegram.Close(ctx)
}

// Telegram is the Telegram bot, nil when none is configured.
func (d *Daemon) Telegram() *telegram.Bot { return d.telegram }
