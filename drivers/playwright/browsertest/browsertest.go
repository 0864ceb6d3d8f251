// Package browsertest starts real playwright drivers for tests.
package browsertest

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/playwright"
)

var install struct {
	once sync.Once
	err  error
}

// New returns a started, headless driver on a fresh data dir, closed by
// t.Cleanup. A browser that cannot start fails the test with the driver's
// own sentence; nothing is skipped.
func New(t testing.TB, opts ...func(*playwright.Config)) *playwright.Driver {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	d, err := Start(ctx, TempDir(t), opts...)
	if d != nil {
		t.Cleanup(func() { _ = d.Close() })
	}
	if err != nil {
		t.Fatalf("the browser did not start: %s", sentence(err))
	}
	return d
}

// Start is New for callers without a testing.TB (a TestMain sharing one
// driver): it installs the Playwright driver if needed, launches a headless
// browser on dataDir, and returns the driver, which the caller closes (also
// after an error, when it is not nil). As root the browser runs as the
// unprivileged browser account with its sandbox on, as it does in buddi;
// the data directory may be anywhere (a t.TempDir() is fine).
func Start(ctx context.Context, dataDir string, opts ...func(*playwright.Config)) (*playwright.Driver, error) {
	install.once.Do(func() { install.err = playwright.InstallDriver(ctx, io.Discard) })
	if install.err != nil {
		return nil, install.err
	}
	cfg := playwright.ConfigFromEnv(dataDir)
	headless := true
	cfg.Headless = &headless
	for _, o := range opts {
		o(&cfg)
	}
	d, err := playwright.New(cfg)
	if err != nil {
		return nil, err
	}
	tabs, err := d.Open(ctx, "browsertest")
	if err != nil {
		return d, err
	}
	return d, tabs.Close(ctx)
}

// TempDir is t.TempDir() made enterable (not readable) by other users on
// the way to it, so that a browser running as its own account can reach a
// data directory there even where buddi cannot give it a view of its own
// files (root without CAP_SYS_ADMIN). Use it for any data directory a
// browser will run on.
func TempDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if os.Geteuid() == 0 {
		if err := os.Chmod(filepath.Dir(dir), 0o711); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func sentence(err error) string {
	var de *drivers.Error
	if errors.As(err, &de) {
		return de.Message + " (" + err.Error() + ")"
	}
	return err.Error()
}
