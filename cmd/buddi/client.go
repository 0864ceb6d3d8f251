package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/buddi-dev/buddi/apiclient"
	"github.com/buddi-dev/buddi/instance"
	"github.com/buddi-dev/buddi/messages"
)

// ownerTimeout bounds one owner command's request.
const ownerTimeout = 60 * time.Second

// ownerClient reads the owner token and finds the daemon's address: --addr
// when given, else the running daemon's serve.json, else the default.
func ownerClient(f *flags) (*apiclient.Owner, error) {
	token, err := instance.ReadOwnerToken(f.cfg.DataDir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("there is no owner token in %s; start buddi there once with `buddi serve --data %s`", f.cfg.DataDir, f.cfg.DataDir)
	}
	if err != nil {
		return nil, fmt.Errorf("the owner token in %s cannot be read: %w", f.cfg.DataDir, err)
	}
	addr, err := daemonAddr(f)
	if err != nil {
		return nil, err
	}
	c, err := apiclient.New("http://"+addr, apiclient.WithUserAgent(messages.CLIAgent+version))
	if err != nil {
		return nil, err
	}
	return c.Owner(token), nil
}

// daemonAddr is --addr when given, else the running daemon's address from
// its serve.json, else the default. A serve.json that is not the user's
// own and owner-only is an error: a token would go where it points.
func daemonAddr(f *flags) (string, error) {
	if f.addrSet {
		return f.cfg.Addr, nil
	}
	inst, err := instance.ReadInstance(f.cfg.DataDir)
	switch {
	case err == nil:
		return inst.Addr, nil
	case errors.Is(err, instance.ErrUntrustedInstance):
		return "", err
	}
	return f.cfg.Addr, nil
}

// ownerContext bounds one owner command.
func ownerContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), ownerTimeout)
}

// running reports whether a daemon answers /healthz at addr.
func running(addr string) bool {
	c, err := apiclient.New("http://" + addr)
	if err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err = c.Health(ctx)
	return err == nil
}
