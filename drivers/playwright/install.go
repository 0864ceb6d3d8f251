package playwright

import (
	"context"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
)

// rootDriverDir is where Playwright's driver lives when buddi runs as root:
// root's own ~/.cache is closed to the account the browser runs as.
const rootDriverDir = "/var/cache/buddi/ms-playwright-go"

// driverVersion is the Playwright version playwright-go runs.
var driverVersion = sync.OnceValue(func() string {
	d, err := pw.NewDriver(&pw.RunOptions{DriverDirectory: rootDriverDir}) // no Logger or Stderr: no global side effects
	if err != nil {
		return ""
	}
	return d.Version
})

// DriverDir is where Playwright's driver is installed and run from:
// PLAYWRIGHT_DRIVER_PATH when set; as root, a system directory every user
// may read; otherwise playwright-go's own place under ~/.cache.
func DriverDir() string {
	if dir := os.Getenv("PLAYWRIGHT_DRIVER_PATH"); dir != "" {
		return dir
	}
	if os.Geteuid() == 0 {
		return filepath.Join(rootDriverDir, driverVersion())
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".cache", "ms-playwright-go", driverVersion())
}

// cliPath is the script node runs as the driver.
func cliPath() string {
	if cli := os.Getenv("PLAYWRIGHT_CLI_PATH"); cli != "" {
		return cli
	}
	return filepath.Join(DriverDir(), "package", "cli.js")
}

// InstallDriver fetches the Playwright driver (the playwright-core package
// that runs on the machine's Node.js) if it is missing or out of date. It
// downloads no browser. Progress lines go to progress. As root the driver
// is left readable by every user, for the browser's account.
func InstallDriver(ctx context.Context, progress io.Writer) error {
	if _, err := nodePath(); err != nil {
		return errNoNode
	}
	err := withNode(ctx, nil, func() error { return pw.Install(runOptions(progress, true)) })
	if err == nil && os.Geteuid() == 0 && os.Getenv("PLAYWRIGHT_DRIVER_PATH") == "" {
		err = openToAll(filepath.Dir(rootDriverDir))
	}
	if err != nil {
		return fail(drivers.CodeNoBrowser, err,
			"The Playwright driver could not be installed: check that the npm registry is reachable and try `buddi browser install` again.")
	}
	return nil
}

// InstallBrowser installs the driver and then tries Playwright's own Chromium
// download. Where that download is unreachable it says so and names the
// distribution's package instead.
func InstallBrowser(ctx context.Context, progress io.Writer) error {
	if err := InstallDriver(ctx, progress); err != nil {
		return err
	}
	opts := runOptions(progress, false)
	opts.Browsers = []string{"chromium"}
	opts.NoInstallShell = true
	if err := withNode(ctx, nil, func() error { return pw.Install(opts) }); err != nil {
		return fail(drivers.CodeNoBrowser, err,
			"Playwright's Chromium download is unreachable from here: run `apt-get install chromium` instead.")
	}
	return nil
}

func runOptions(progress io.Writer, skipBrowsers bool) *pw.RunOptions {
	if progress == nil {
		progress = io.Discard
	}
	return &pw.RunOptions{
		DriverDirectory:     DriverDir(),
		SkipInstallBrowsers: skipBrowsers,
		Stdout:              progress,
		Stderr:              progress,
		Logger:              slog.New(slog.NewTextHandler(progress, nil)),
		Verbose:             true,
	}
}

// openToAll lets every user read dir and what is in it: root's umask may
// have closed what the install made.
func openToAll(dir string) error {
	return filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case e.IsDir():
			return addMode(p, 0o055)
		case e.Type().IsRegular():
			return addMode(p, 0o044)
		}
		return nil
	})
}

// addMode adds bits to p's mode; a file its owner may run becomes
// runnable by all.
func addMode(p string, bits os.FileMode) error {
	fi, err := os.Lstat(p)
	if err != nil {
		return err
	}
	m := fi.Mode().Perm()
	if m&0o100 != 0 {
		bits |= 0o011
	}
	if m|bits == m {
		return nil
	}
	return os.Chmod(p, m|bits)
}

// driverInstalled reports whether the Playwright driver's files are present,
// without running anything.
func driverInstalled() bool {
	if cli := os.Getenv("PLAYWRIGHT_CLI_PATH"); cli != "" {
		return executable(cli) || fileExists(cli)
	}
	return fileExists(cliPath())
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// RunDriver starts a Playwright driver of this package's version with the
// real node, for a browser of the caller's own (a test's owner browser):
// it holds the environment the drivers of buddi's browsers set while they
// start, so it never starts as one of them (as this binary, in their
// sandbox).
func RunDriver(ctx context.Context, opts *pw.RunOptions) (*pw.Playwright, error) {
	var p *pw.Playwright
	err := withNode(ctx, nil, func() error {
		var err error
		p, err = pw.Run(opts)
		return err
	})
	return p, err
}
