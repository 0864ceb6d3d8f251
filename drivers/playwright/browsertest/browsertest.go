// Package browsertest starts real playwright drivers for tests.
package browsertest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
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

// Config installs the Playwright driver if needed and returns the
// configuration New would launch with, on a fresh data dir, for a test of
// the Playwright mode (which makes its own drivers).
func Config(t testing.TB, opts ...func(*playwright.Config)) playwright.Config {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	install.once.Do(func() { install.err = playwright.InstallDriver(ctx, io.Discard) })
	if install.err != nil {
		t.Fatalf("the Playwright driver did not install: %s", sentence(install.err))
	}
	return headless(TempDir(t), opts)
}

func headless(dataDir string, opts []func(*playwright.Config)) playwright.Config {
	cfg := playwright.ConfigFromEnv(dataDir)
	on := true
	cfg.Headless = &on
	for _, o := range opts {
		o(&cfg)
	}
	return cfg
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
	d, err := playwright.New(headless(dataDir, opts))
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

// PIDs lists the processes running a browser on dataDir's profile: the
// browser process and the helpers that carry the profile on their command
// lines (renderers do not).
func PIDs(dataDir string) []int {
	mark := []byte("--user-data-dir=" + filepath.Join(dataDir, "browser", "profile") + "\x00")
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if cmd, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline")); err == nil && bytes.Contains(cmd, mark) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// BrowserPID is the browser process running on dataDir's profile (the one
// of PIDs that is no helper), or 0 when none runs.
func BrowserPID(dataDir string) int {
	for _, pid := range PIDs(dataDir) {
		cmd, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
		if err == nil && !bytes.Contains(cmd, []byte("--type=")) {
			return pid
		}
	}
	return 0
}

func sentence(err error) string {
	var de *drivers.Error
	if errors.As(err, &de) {
		return de.Message + " (" + err.Error() + ")"
	}
	return err.Error()
}
