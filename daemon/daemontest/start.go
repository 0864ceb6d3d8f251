package daemontest

import (
	"context"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/drivers/playwright/browsertest"
	"github.com/buddi-dev/buddi/instance"
)

// Daemon is an in-process daemon with a client.
type Daemon struct {
	*daemon.Daemon
	*Client
	Dir string
}

// Start starts a daemon on dir (a temp dir when empty) listening on an
// ephemeral 127.0.0.1 port, shut down by t.Cleanup unless Stop was called.
func Start(t testing.TB, dir string, o daemon.Options) *Daemon {
	t.Helper()
	if dir == "" {
		dir = browsertest.TempDir(t)
	}
	o.Config.DataDir = dir
	if o.Config.Addr == "" {
		o.Config.Addr = "127.0.0.1:0"
	}
	if o.Config.Driver == "" {
		o.Config.Driver = "sim"
	}
	if o.Config.LogLevel == "" {
		o.Config.LogLevel = "warn"
	}
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	if err := o.Config.Validate(); err != nil {
		t.Fatal(err)
	}
	d, err := daemon.Start(o)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	token, err := instance.ReadOwnerToken(dir)
	if err != nil {
		t.Fatal(err)
	}
	h := &Daemon{Daemon: d, Client: NewClient("http://"+d.Addr(), token), Dir: dir}
	t.Cleanup(func() { h.Stop(t) })
	return h
}

// Stop shuts the daemon down (once).
func (h *Daemon) Stop(t testing.TB) {
	if h.Daemon == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := h.Shutdown(ctx); err != nil {
		t.Errorf("shutdown: %v", err)
	}
	h.Daemon = nil
	h.HTTP.CloseIdleConnections()
}
