// Package webtest drives the real dashboard in a real Chromium for tests
// and benchmarks: the owner's own headless Chromium pointed at a running
// buddi (the tests start one in process, through daemon/daemontest),
// signed in with the one-time link buddi prints. Everything it starts is
// stopped by t.Cleanup. It knows buddi only as an address and a sign-in
// link (Buddi), so the surfaces' tree depends on nothing above it.
package webtest

import (
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers/playwright"
	"github.com/buddi-dev/buddi/messages"
)

// Wait bounds how long a test waits for the page to show something.
const Wait = 20 * time.Second

// Buddi is a running buddi as the owner's browser reaches it.
type Buddi interface {
	Addr() string
	SignInLink() messages.SignInLink
}

// Dashboard is the owner's browser pointed at a running buddi's dashboard.
type Dashboard struct {
	Buddi   Buddi
	Browser pw.Browser
	Base    string // http://127.0.0.1:<port>
}

var shared struct {
	once sync.Once
	pw   *pw.Playwright
	br   pw.Browser
	err  error
}

// Browser is the owner's headless Chromium, shared by the tests of a
// package (Stop closes it); each page gets a context of its own, so
// cookies are never shared.
func Browser(t testing.TB) pw.Browser {
	t.Helper()
	shared.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if shared.err = playwright.InstallDriver(ctx, io.Discard); shared.err != nil {
			return
		}
		if shared.pw, shared.err = playwright.RunDriver(ctx, &pw.RunOptions{DriverDirectory: playwright.DriverDir(), SkipInstallBrowsers: true, Stdout: io.Discard}); shared.err != nil {
			return
		}
		headless := true
		path, err := playwright.Find(playwright.Config{DataDir: os.TempDir(), Headless: &headless})
		if err != nil {
			shared.err = err
			return
		}
		args := []string{"--disable-background-networking", "--disable-component-update", "--no-first-run"}
		if os.Geteuid() == 0 || os.Getenv(playwright.EnvNoSandbox) == "1" {
			args = append(args, "--no-sandbox") // Chromium refuses its sandbox to root
		}
		shared.br, shared.err = shared.pw.Chromium.Launch(pw.BrowserTypeLaunchOptions{
			ExecutablePath: pw.String(path), Headless: pw.Bool(true), Args: args})
	})
	if shared.err != nil {
		t.Fatalf("the owner's browser did not start: %v", shared.err)
	}
	return shared.br
}

// Stop closes the shared browser; a TestMain calls it after the tests.
func Stop() {
	if shared.br != nil {
		_ = shared.br.Close()
	}
	if shared.pw != nil {
		_ = shared.pw.Stop()
	}
}

// Open points the owner's browser at b.
func Open(t testing.TB, b Buddi) *Dashboard {
	t.Helper()
	return &Dashboard{Buddi: b, Browser: Browser(t), Base: "http://" + b.Addr()}
}

// Page opens a page of a fresh browser context (no cookies) of the given
// size, closed when the test ends.
func (o *Dashboard) Page(t testing.TB, width, height int) pw.Page {
	t.Helper()
	return NewPage(t, o.Browser, pw.BrowserNewContextOptions{
		Viewport: &pw.Size{Width: width, Height: height}, IsMobile: pw.Bool(width < 600), HasTouch: pw.Bool(width < 600)})
}

// Phone opens a page as a phone shows it (375×812 CSS pixels, or 812×375
// turned, touch, two device pixels to one), in a fresh context of br.
func Phone(t testing.TB, br pw.Browser, landscape bool) pw.Page {
	t.Helper()
	w, h := 375, 812
	if landscape {
		w, h = h, w
	}
	return NewPage(t, br, pw.BrowserNewContextOptions{Viewport: &pw.Size{Width: w, Height: h},
		IsMobile: pw.Bool(true), HasTouch: pw.Bool(true), DeviceScaleFactor: pw.Float(2)})
}

// NewPage opens a page of a fresh context of br with opts, closed when the
// test ends.
func NewPage(t testing.TB, br pw.Browser, opts pw.BrowserNewContextOptions) pw.Page {
	t.Helper()
	bc, err := br.NewContext(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = bc.Close() })
	bc.SetDefaultTimeout(float64(Wait.Milliseconds()))
	p, err := bc.NewPage()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// SignIn opens a fresh one-time link in p and waits for the Host browser page.
func (o *Dashboard) SignIn(t testing.TB, p pw.Page) {
	t.Helper()
	link := o.Buddi.SignInLink()
	if _, err := p.Goto(link.URL); err != nil {
		t.Fatal(err)
	}
	Visible(t, p.Locator("h1", pw.PageLocatorOptions{HasText: "Host browser"}))
}

// Visible waits until l is visible.
func Visible(t testing.TB, l pw.Locator) {
	t.Helper()
	if err := l.First().WaitFor(pw.LocatorWaitForOptions{State: pw.WaitForSelectorStateVisible}); err != nil {
		t.Fatalf("waiting for the page to show it: %v (the page as it was: %s)", err, failed(t, l))
	}
}

// Gone waits until l is hidden or detached.
func Gone(t testing.TB, l pw.Locator) {
	t.Helper()
	if err := l.First().WaitFor(pw.LocatorWaitForOptions{State: pw.WaitForSelectorStateHidden}); err != nil {
		t.Fatalf("waiting for the page to drop it: %v (the page as it was: %s)", err, failed(t, l))
	}
}

// Click clicks l.
func Click(t testing.TB, l pw.Locator) {
	t.Helper()
	if err := l.Click(); err != nil {
		t.Fatal(err)
	}
}

// committed is set by -shots (make shots): only then do the tests write the
// dashboard's committed screenshots, so a test run never changes a file git
// tracks.
var committed = flag.Bool("shots", false, "write the dashboard's committed screenshots (ui/web/testdata/screenshots)")

// Shots is where the tests save their screenshots: with -shots, the web
// package's testdata/screenshots, which are committed; otherwise a
// directory under the system's temporary one, kept after the run as the
// artifacts.
func Shots() string {
	if *committed {
		_, file, _, _ := runtime.Caller(0)
		return filepath.Join(filepath.Dir(file), "..", "testdata", "screenshots")
	}
	return filepath.Join(os.TempDir(), "buddi-screenshots")
}

// Screenshot saves the page as <name>.png in Shots.
func Screenshot(t testing.TB, p pw.Page, name string) string {
	t.Helper()
	if err := os.MkdirAll(Shots(), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(Shots(), strings.ReplaceAll(name, "/", "_")+".png")
	if _, err := p.Screenshot(pw.PageScreenshotOptions{Path: pw.String(path), FullPage: pw.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	return path
}

// ScreenshotScreen saves what the screen shows (not the page below it, as
// Screenshot does) as <name>.png in Shots: a view that fills the screen.
func ScreenshotScreen(t testing.TB, p pw.Page, name string) string {
	t.Helper()
	if err := os.MkdirAll(Shots(), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(Shots(), strings.ReplaceAll(name, "/", "_")+".png")
	if _, err := p.Screenshot(pw.PageScreenshotOptions{Path: pw.String(path)}); err != nil {
		t.Fatal(err)
	}
	return path
}

// failed saves the page a wait gave up on, for the failure message.
func failed(t testing.TB, l pw.Locator) string {
	p, err := l.Page()
	if err != nil {
		return "no page"
	}
	return Screenshot(t, p, "failed-"+t.Name())
}
