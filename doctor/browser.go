package doctor

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/drivers/playwright"
	"github.com/buddi-dev/buddi/messages"
)

// PlaywrightConfig is the agents' browser as c configures it.
func PlaywrightConfig(c config.Config) playwright.Config {
	headless := !c.Display || c.Headless
	return playwright.Config{DataDir: c.DataDir, Channel: c.Channel, NoSandbox: c.NoSandbox,
		BrowserUser: c.BrowserUser, Headless: &headless}
}

// browserRows check the browser, Playwright's driver, whom the browser
// runs as and its sandbox, then (with launch) start it once.
func browserRows(c config.Config, launch bool) []messages.DoctorRow {
	rows := make([]messages.DoctorRow, 0, 4)
	if path, err := playwright.Find(PlaywrightConfig(c)); err != nil {
		rows = append(rows, row("browser", Error, err.Error()))
	} else {
		rows = append(rows, row("browser", OK, path+"."))
	}
	if err := driverInstalled(); err != nil {
		rows = append(rows, row("playwright", Error, err.Error()))
	} else {
		rows = append(rows, row("playwright", OK, "the driver is installed in "+playwright.DriverDir()+"."))
	}
	r := playwright.RunsAs(PlaywrightConfig(c))
	rows = append(rows, userRow(c, r), sandboxRow(c, r))
	if launch && !slices.ContainsFunc(rows, func(r messages.DoctorRow) bool { return r.Level == Error }) {
		rows = append(rows, launchRow(c))
	}
	return rows
}

// launchRow starts the browser once, the first-run check: a launch that
// fails (missing libraries, no usable sandbox) says so in the sentence
// browser.status and a failed act give, with the command to run.
func launchRow(c config.Config) messages.DoctorRow {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cfg := PlaywrightConfig(c)
	cfg.DataDir = filepath.Join(os.TempDir(), fmt.Sprintf("buddi-doctor-%d", os.Getpid()))
	defer os.RemoveAll(cfg.DataDir)
	// The row says how the start went; the browser's own log lines of a
	// start that went well would only repeat it around the table.
	cfg.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	if err := playwright.Probe(ctx, cfg); err != nil {
		return row("launch", Error, playwright.Message(err))
	}
	return row("launch", OK, "the browser starts and opens a tab.")
}

// runningRow says where the running buddi's browser is in its start:
// starting (for how long), ready (since when, how long the start took,
// how often it came back), or failed (why), or not started yet.
func runningRow(l messages.BrowserLaunch) messages.DoctorRow {
	elapsed := time.Since(l.Since).Round(time.Second)
	busy := ""
	if l.Load >= 1.5 {
		busy = fmt.Sprintf(" on a machine busy with %.1f× its cores' work", l.Load)
	}
	switch l.State {
	case messages.LaunchStarting:
		return row("browser now", OK, fmt.Sprintf("starting, for %v so far%s; acts wait for it.", elapsed, busy))
	case messages.LaunchFailed:
		return row("browser now", Error, "the last start failed: "+l.Problem)
	case messages.LaunchReady:
		text := fmt.Sprintf("ready since %s (it took %.1f s to start%s)", l.Since.Local().Format("15:04:05"), float64(l.TookMs)/1000, busy)
		if l.Restarts > 0 {
			text += fmt.Sprintf("; started again %d time(s) after it died or stopped answering", l.Restarts)
		}
		return row("browser now", OK, text+".")
	}
	return row("browser now", OK, "not started yet: it starts on the first act.")
}

// userRow says whom the browser side (Playwright's driver and Chromium)
// runs as.
func userRow(c config.Config, r playwright.Runner) messages.DoctorRow {
	root := os.Geteuid() == 0
	switch {
	case r.Problem != "":
		return row("browser user", Error, r.Problem)
	case root && c.NoSandbox:
		return row("browser user", Warning, "root, because BUDDI_BROWSER_NO_SANDBOX=1 is set; unset it to have the browser run as the unprivileged user "+browserUser(c)+".")
	case root && r.Create:
		return row("browser user", OK, fmt.Sprintf("%s, a system user without a login shell that buddi creates on the first launch; it can read neither the owner token nor the store.", r.User))
	case root:
		return row("browser user", OK, fmt.Sprintf("%s (uid %d), not root: it can read neither the owner token nor the store.", r.User, r.UID))
	}
	return row("browser user", OK, fmt.Sprintf("%s (uid %d), the user buddi runs as.", r.User, r.UID))
}

func browserUser(c config.Config) string {
	if c.BrowserUser != "" {
		return c.BrowserUser
	}
	return playwright.DefaultBrowserUser
}

func sandboxRow(c config.Config, r playwright.Runner) messages.DoctorRow {
	switch {
	case c.NoSandbox && os.Geteuid() == 0:
		return row("sandbox", Warning, "BUDDI_BROWSER_NO_SANDBOX=1: Chromium runs WITHOUT its sandbox, as root; unset it to keep the sandbox (buddi then runs the browser as "+browserUser(c)+").")
	case c.NoSandbox:
		return row("sandbox", Warning, "BUDDI_BROWSER_NO_SANDBOX=1: Chromium runs WITHOUT its sandbox; unset it, since as an ordinary user the sandbox works.")
	case r.Problem != "":
		return row("sandbox", Error, "no browser can be started with its sandbox until the browser user row is fixed.")
	}
	return row("sandbox", OK, "Chromium keeps its sandbox.")
}

// driverInstalled runs Playwright's driver for its version: it works only
// when the driver is installed and Node.js is found.
func driverInstalled() error {
	if os.Getenv("PLAYWRIGHT_NODEJS_PATH") == "" {
		// As the driver does at launch: the machine's node runs Playwright.
		if node, err := exec.LookPath("node"); err == nil {
			_ = os.Setenv("PLAYWRIGHT_NODEJS_PATH", node)
		}
	}
	d, err := pw.NewDriver(&pw.RunOptions{DriverDirectory: playwright.DriverDir(), SkipInstallBrowsers: true})
	if err != nil {
		return fmt.Errorf("Playwright's driver cannot be located (%w); run `buddi browser install --driver-only`", err)
	}
	out, err := d.Command("--version").Output()
	if err != nil || !strings.Contains(string(out), d.Version) {
		return fmt.Errorf("Playwright's driver %s is not installed in %s or Node.js is missing; run `buddi browser install --driver-only` with PLAYWRIGHT_NODEJS_PATH set to your node", d.Version, playwright.DriverDir())
	}
	return nil
}
