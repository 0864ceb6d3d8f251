package playwright

import (
	"context"
	"io"
	"log/slog"
	"os"
	"sync/atomic"
	"time"

	pw "github.com/mxschmitt/playwright-go"
)

// baseArgs keep a browser with no network of its own quiet.
var baseArgs = []string{"--disable-background-networking", "--disable-component-update", "--no-first-run"}

// browser is one launched Playwright driver and the persistent context on
// the profile. It dies as a whole: a new launch makes a new browser.
type browser struct {
	pw      *pw.Playwright
	bctx    pw.BrowserContext
	profile string
	cfg     *Config
	log     *slog.Logger
	dead    atomic.Bool
}

// launch starts the driver and the browser. On failure everything it
// started is stopped again.
func launch(ctx context.Context, cfg *Config) (*browser, error) {
	if err := rootRefusal(cfg); err != nil {
		return nil, err
	}
	path, err := Find(*cfg)
	if err != nil {
		return nil, err
	}
	if _, err := nodePath(); err != nil {
		return nil, errNoNode
	}
	p, err := call(ctx, func() (*pw.Playwright, error) {
		return pw.Run(&pw.RunOptions{Stdout: io.Discard, Stderr: logWriter{cfg.Logger}, Logger: cfg.Logger})
	})
	if err != nil {
		return nil, launchError(err)
	}
	b := &browser{pw: p, profile: cfg.profileDir(), cfg: cfg, log: cfg.Logger}
	if err := b.start(ctx, path); err != nil {
		b.close()
		return nil, err
	}
	return b, nil
}

func (b *browser) start(ctx context.Context, path string) error {
	if err := registerEngine(b.pw); err != nil {
		return launchError(err)
	}
	if err := os.MkdirAll(b.profile, 0o700); err != nil {
		return launchError(err)
	}
	if err := os.Chmod(b.profile, 0o700); err != nil {
		return launchError(err)
	}
	killProfile(b.profile) // a browser left over from a crashed run holds the profile
	args := append(append([]string{}, baseArgs...), b.cfg.ExtraArgs...)
	bctx, err := call(ctx, func() (pw.BrowserContext, error) {
		return b.pw.Chromium.LaunchPersistentContext(b.profile, pw.BrowserTypeLaunchPersistentContextOptions{
			ExecutablePath:  pw.String(path),
			Headless:        pw.Bool(b.cfg.headless()),
			ChromiumSandbox: pw.Bool(!b.cfg.NoSandbox),
			Args:            args,
			ServiceWorkers:  pw.ServiceWorkerPolicyBlock,
			AcceptDownloads: pw.Bool(false),
			Timeout:         ms(ctx, 60*time.Second),
		})
	})
	if err != nil {
		return launchError(err)
	}
	b.bctx = bctx
	bctx.OnClose(func(pw.BrowserContext) { b.dead.Store(true) })
	b.log.Info("browser started", "path", path, "headless", b.cfg.headless(), "profile", b.profile)
	return nil
}

// close closes the context, stops the driver and kills what is left.
func (b *browser) close() {
	b.dead.Store(true)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if b.bctx != nil {
		_ = do(ctx, func() error { return b.bctx.Close() })
	}
	_ = do(ctx, b.pw.Stop)
	killProfile(b.profile)
}

// newPage opens a blank page in the shared context.
func (b *browser) newPage(ctx context.Context) (pw.Page, error) {
	return call(ctx, b.bctx.NewPage)
}

// logWriter sends the driver's stderr to the log, a line per write.
type logWriter struct{ log *slog.Logger }

func (w logWriter) Write(p []byte) (int, error) {
	w.log.Debug("playwright driver", "stderr", string(p))
	return len(p), nil
}
