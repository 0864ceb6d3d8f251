package playwright

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
)

// baseArgs keep a browser with no network of its own quiet, and bound
// the JavaScript heap of each page's renderer (heapMB): a page that grows
// its memory without end dies at that size, not when the machine runs out.
var baseArgs = []string{"--disable-background-networking", "--disable-component-update", "--no-first-run",
	fmt.Sprintf("--js-flags=--max-old-space-size=%d", heapMB)}

// heapMB is the JavaScript heap, in MB, a page's renderer may grow to.
const heapMB = 1024

// browser is one launched Playwright driver and the persistent context on
// the profile. It dies as a whole: a new launch makes a new browser.
type browser struct {
	pw      *pw.Playwright
	bctx    pw.BrowserContext
	profile string
	account *account // nil: buddi's own user
	cfg     *Config
	gate    *gate // checks every document request; nil without CheckURL
	log     *slog.Logger
	dead    atomic.Bool
	visited origins // every origin a document was at, for logins

	engineOnce sync.Once
	engine     string // the expression that loads the engine into a world (installExpr)

	// gone closes when the browser's context closed (it died, or was
	// closed); stop closes when close begins, ending the watchdog.
	gone, stop chan struct{}
	goneOnce   sync.Once
	closeOnce  sync.Once
	// mourned is set, under Driver.mu, once the driver has heard of its
	// death and started the next browser.
	mourned bool
	ping    pinger     // the watchdog's question to the browser itself
	steps   []any      // how long each step of the launch took, for its log line
	stderr  *driverLog // the driver's stderr, with Chromium's in it: its last words when it dies
}

// launch starts the driver and the browser, as the account browserAccount
// chooses and in the namespaces the plan gives. On failure everything it
// started is stopped again.
func launch(ctx context.Context, cfg *Config) (*browser, error) {
	begun := time.Now()
	a, err := browserAccount(cfg)
	if err != nil {
		return nil, err
	}
	path, err := Find(*cfg)
	if err != nil {
		return nil, err
	}
	nodeJS, err := nodePath()
	if err != nil {
		return nil, errNoNode
	}
	profile := cfg.profileDir()
	killProfile(profile) // a browser left over from a crashed run holds the profile
	if err := makeProfile(profile, a); err != nil {
		return nil, err
	}
	pl, err := launchPlan(cfg, a, nodeJS, path)
	if err != nil {
		return nil, err
	}
	if a == nil {
		if err := writePrefs(profile); err != nil {
			return nil, launchError(err)
		}
	}
	stderr := &driverLog{log: cfg.Logger}
	var p *pw.Playwright
	err = withNode(ctx, pl, func() (err error) {
		defer setEnv(browserStderr, "pw:browser")()
		p, err = pw.Run(&pw.RunOptions{DriverDirectory: DriverDir(), Stdout: io.Discard, Stderr: stderr, Logger: cfg.Logger})
		return err
	})
	if err != nil {
		return nil, stderr.launchError(err)
	}
	b := &browser{pw: p, profile: profile, cfg: cfg, log: cfg.Logger, account: a, stderr: stderr,
		gone: make(chan struct{}), stop: make(chan struct{}), steps: []any{"driver", time.Since(begun).Round(time.Millisecond)}}
	if err := b.start(ctx, path); err != nil {
		b.close()
		return nil, stderr.launchError(err)
	}
	return b, nil
}

func (b *browser) start(ctx context.Context, path string) error {
	if err := registerEngine(b.pw, b.cfg.FieldRules); err != nil {
		return err
	}
	args := append(append([]string{}, baseArgs...), b.cfg.ExtraArgs...)
	begun := time.Now()
	bctx, err := call(ctx, func() (pw.BrowserContext, error) {
		return b.pw.Chromium.LaunchPersistentContext(b.profile, pw.BrowserTypeLaunchPersistentContextOptions{
			ExecutablePath:  pw.String(path),
			Headless:        pw.Bool(b.cfg.headless()),
			ChromiumSandbox: pw.Bool(!b.cfg.NoSandbox),
			Args:            args,
			ServiceWorkers:  pw.ServiceWorkerPolicyBlock,
			AcceptDownloads: pw.Bool(false),
			Timeout:         ms(ctx, maxLoad*launchTimeout), // the launch's own bound, scaled
		})
	})
	if err != nil {
		return err
	}
	b.steps = append(b.steps, "chromium", time.Since(begun).Round(time.Millisecond))
	begun = time.Now()
	b.bctx = bctx
	bctx.OnClose(func(pw.BrowserContext) { b.lost() })
	if err := do(ctx, func() error { return bctx.AddInitScript(pw.Script{Content: pw.String(pageGuard)}) }); err != nil {
		return err
	}
	if b.gate, err = openGate(ctx, b); err != nil {
		return err
	}
	user := "buddi's own user"
	if b.account != nil {
		user = b.account.name
	}
	b.steps = append(b.steps, "gate", time.Since(begun).Round(time.Millisecond))
	b.log.Info("browser started", append([]any{"path", path, "headless", b.cfg.headless(), "profile", b.profile,
		"user", user, "sandbox", !b.cfg.NoSandbox, "netns", b.cfg.NetNS != ""}, b.steps...)...)
	return nil
}

// lost marks the browser dead: its context closed.
func (b *browser) lost() {
	b.dead.Store(true)
	b.goneOnce.Do(func() { close(b.gone) })
}

// close closes the context, stops the driver and kills what is left, once.
func (b *browser) close() {
	b.closeOnce.Do(func() {
		b.dead.Store(true)
		close(b.stop)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if b.bctx != nil {
			_ = do(ctx, func() error { return b.bctx.Close() })
		}
		_ = do(ctx, b.pw.Stop)
		killProfile(b.profile)
	})
}

// newPage opens a blank page in the shared context.
func (b *browser) newPage(ctx context.Context) (pw.Page, error) {
	return call(ctx, b.bctx.NewPage)
}

// browserStderr is the driver's setting that passes Chromium's stderr on
// to its own (Playwright's debug log of the browser process).
const browserStderr = "DEBUG"

// setEnv sets key to value for the driver about to start, unless the
// environment sets it already, and returns what puts it back. It runs
// under withNode's lock.
func setEnv(key, value string) func() {
	old, had := os.LookupEnv(key)
	if had {
		return func() {}
	}
	_ = os.Setenv(key, value)
	return func() { restoreEnv(key, old, had) }
}

// lastWordsMax bounds what is kept of the driver's stderr.
const lastWordsMax = 4 << 10

// driverLog sends the driver's stderr to the log, a line per write, keeps
// the line the stand-in for node prints when it cannot go on, and keeps
// the last lastWordsMax bytes: said in the log when the browser dies.
type driverLog struct {
	log       *slog.Logger
	mu        sync.Mutex
	complaint string
	last      []byte
}

func (w *driverLog) Write(p []byte) (int, error) {
	w.log.Debug("playwright driver", "stderr", string(p))
	w.mu.Lock()
	defer w.mu.Unlock()
	if c := complaintIn(p); c != "" {
		w.complaint = c
	}
	for line := range bytes.Lines(p) {
		if !bytes.Contains(line, []byte(":ERROR:dbus/")) { // a headless browser has no session bus, and says so often
			w.last = append(w.last, line...)
		}
	}
	if n := len(w.last); n > lastWordsMax {
		w.last = append(w.last[:0], w.last[n-lastWordsMax:]...)
	}
	return len(p), nil
}

// lastWords is the end of what the driver wrote to its stderr.
func (w *driverLog) lastWords() string {
	if w == nil {
		return ""
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(bytes.TrimSpace(w.last))
}

// launchError is launchError with what the stand-in said, when it said
// anything: on the driver's stderr, or on that of the version check
// playwright-go runs first.
func (w *driverLog) launchError(err error) error {
	w.mu.Lock()
	c := w.complaint
	w.mu.Unlock()
	var ee *exec.ExitError
	if c == "" && errors.As(err, &ee) {
		c = complaintIn(ee.Stderr)
	}
	if c != "" {
		return fail(drivers.CodeNoBrowser, err, "The browser could not be started as its own user: "+c+" Run `buddi doctor` to see why.")
	}
	return launchError(err)
}

// complaintIn returns the stand-in's line in out, without its mark.
func complaintIn(out []byte) string {
	i := bytes.Index(out, []byte(shimMark))
	if i < 0 {
		return ""
	}
	line, _, _ := bytes.Cut(out[i+len(shimMark):], []byte("\n"))
	return string(bytes.TrimSpace(line))
}
