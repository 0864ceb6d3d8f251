// Package chrometest starts, for tests, the owner's Chrome as Your browser
// sees it: a headless Chromium of its own (not buddi's browser) with
// unpacked copies of the extension loaded, and stops its extension
// workers the way Chrome does when they idle.
package chrometest

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers/playwright"
)

// Launch starts headless Chromium with the unpacked extensions in dirs
// (absolute paths), closed when the test ends.
func Launch(t testing.TB, dirs ...string) pw.BrowserContext {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := playwright.InstallDriver(ctx, io.Discard); err != nil {
		t.Fatalf("the Playwright driver: %v", err)
	}
	path, err := playwright.Find(playwright.Config{})
	if err != nil {
		t.Fatal(err)
	}
	// Chromium refuses its sandbox to root; this raw launch (the owner's
	// Chrome, not buddi's browser) then runs without it, as
	// BUDDI_BROWSER_NO_SANDBOX=1 says.
	if os.Geteuid() == 0 {
		t.Setenv(playwright.EnvNoSandbox, "1")
	}
	run, err := playwright.RunDriver(context.Background(), &pw.RunOptions{DriverDirectory: playwright.DriverDir(), SkipInstallBrowsers: true, Stdout: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = run.Stop() })
	list := strings.Join(dirs, ",")
	bc, err := run.Chromium.LaunchPersistentContext(t.TempDir(), pw.BrowserTypeLaunchPersistentContextOptions{
		ExecutablePath:    pw.String(path),
		Headless:          pw.Bool(true),
		ChromiumSandbox:   pw.Bool(os.Getenv(playwright.EnvNoSandbox) != "1"),
		IgnoreDefaultArgs: []string{"--disable-extensions"},
		Args: []string{"--load-extension=" + list, "--disable-extensions-except=" + list,
			"--disable-background-networking", "--disable-component-update", "--no-first-run"},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = bc.Close() })
	return bc
}

// StopWorkers stops every service worker of the browser, as Chrome stops
// an idle extension worker; page is any page of it, to reach the browser.
func StopWorkers(t testing.TB, bc pw.BrowserContext, page pw.Page) {
	t.Helper()
	cdp, err := bc.NewCDPSession(page)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cdp.Send("ServiceWorker.enable", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := cdp.Send("ServiceWorker.stopAllWorkers", nil); err != nil {
		t.Fatal(err)
	}
}
