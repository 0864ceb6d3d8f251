package playwright

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/buddi-dev/buddi/drivers"
	pw "github.com/mxschmitt/playwright-go"
)

// InstallDriver fetches the Playwright driver (the playwright-core package
// that runs on the machine's Node.js) if it is missing or out of date. It
// downloads no browser. Progress lines go to progress.
func InstallDriver(ctx context.Context, progress io.Writer) error {
	if _, err := nodePath(); err != nil {
		return errNoNode
	}
	err := do(ctx, func() error { return pw.Install(runOptions(progress, true)) })
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
	if err := do(ctx, func() error { return pw.Install(opts) }); err != nil {
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
		SkipInstallBrowsers: skipBrowsers,
		Stdout:              progress,
		Stderr:              progress,
		Logger:              slog.New(slog.NewTextHandler(progress, nil)),
		Verbose:             true,
	}
}

// driverInstalled reports whether the Playwright driver's files are present,
// without running anything.
func driverInstalled() bool {
	dir := os.Getenv("PLAYWRIGHT_DRIVER_PATH")
	if dir == "" {
		d, err := pw.NewDriver(&pw.RunOptions{}) // no Logger or Stderr: no global side effects
		if err != nil {
			return false
		}
		home, err := os.UserHomeDir()
		if err != nil {
			return false
		}
		dir = filepath.Join(home, ".cache", "ms-playwright-go", d.Version)
	}
	if cli := os.Getenv("PLAYWRIGHT_CLI_PATH"); cli != "" {
		return executable(cli) || fileExists(cli)
	}
	return fileExists(filepath.Join(dir, "package", "cli.js"))
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
