package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/doctor"
	"github.com/buddi-dev/buddi/drivers/playwright"
)

func init() {
	register(&command{name: "browser", args: "[install [--driver-only]]",
		summary: "show which browser agents will use, or install Playwright's driver and browser", run: browser})
}

func browser(e *env, args []string) int {
	f := newFlags(e, "browser")
	driverOnly := f.Bool("driver-only", false, "install: only Playwright's driver, not its Chromium download")
	if code, ok := f.parse(args, -1); !ok {
		return code
	}
	switch {
	case len(f.pos) == 0:
		return browserShow(e, f.cfg)
	case len(f.pos) == 1 && f.arg(0) == "install":
		return browserInstall(e, *driverOnly)
	}
	return usageFail(e, "browser", "expected nothing or `install`; run `buddi browser --help`.")
}

func browserShow(e *env, c config.Config) int {
	path, err := playwright.Find(doctor.PlaywrightConfig(c))
	if err != nil {
		return fail(e, "browser", "%s", err)
	}
	mode := "headless (no display)"
	if c.Display {
		mode = "headed (a display is set)"
	}
	fmt.Fprintf(e.stdout, "Agents will use %s, %s, with the profile in %s/browser/profile.\n", path, mode, c.DataDir)
	return exitOK
}

func browserInstall(e *env, driverOnly bool) int {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 10*time.Minute)
	defer cancelT()
	if err := playwright.InstallDriver(ctx, e.stderr); err != nil {
		return fail(e, "browser", "%s", err)
	}
	fmt.Fprintln(e.stderr, "Playwright's driver is installed.")
	if driverOnly {
		return exitOK
	}
	if err := playwright.InstallBrowser(ctx, e.stderr); err != nil {
		return fail(e, "browser", "%s", err)
	}
	fmt.Fprintln(e.stderr, "Playwright's Chromium is installed.")
	return exitOK
}
