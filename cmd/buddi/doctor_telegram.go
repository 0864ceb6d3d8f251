package main

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/apiclient"
	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/instance"
	"github.com/buddi-dev/buddi/messages"
)

// telegramView reads the pairing from the running buddi serve (live), else
// from the store.
func telegramView(c config.Config) (v messages.TelegramView, live bool, err error) {
	if inst, err := instance.ReadInstance(c.DataDir); err == nil && running(inst.Addr) {
		token, err := instance.ReadOwnerToken(c.DataDir)
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
