package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/drivers/playwright"
)

// browserRows check the browser, Playwright's driver and the sandbox.
func browserRows(c config.Config) []row {
	rows := make([]row, 0, 3)
	if path, err := playwright.Find(pwConfig(c)); err != nil {
		rows = append(rows, row{"browser", failed, err.Error()})
	} else {
		rows = append(rows, row{"browser", ok, path + "."})
	}
	if err := driverInstalled(); err != nil {
		rows = append(rows, row{"playwright", failed, err.Error()})
	} else {
		rows = append(rows, row{"playwright", ok, "the driver is installed."})
	}
	return append(rows, sandboxRow(c))
}

func sandboxRow(c config.Config) row {
	root := os.Geteuid() == 0
	switch {
	case c.NoSandbox && root:
		return row{"sandbox", warning, "BUDDI_BROWSER_NO_SANDBOX=1: Chromium runs WITHOUT its sandbox because buddi runs as root; run buddi as an ordinary user to keep it."}
	case c.NoSandbox:
		return row{"sandbox", warning, "BUDDI_BROWSER_NO_SANDBOX=1: Chromium runs WITHOUT its sandbox; unset it, since as an ordinary user the sandbox works."}
	case root:
		return row{"sandbox", failed, "buddi runs as root, where Chromium refuses its sandbox; run it as an ordinary user, or set BUDDI_BROWSER_NO_SANDBOX=1 to accept an unsandboxed browser."}
	}
	return row{"sandbox", ok, "Chromium keeps its sandbox."}
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
	d, err := pw.NewDriver(&pw.RunOptions{SkipInstallBrowsers: true})
	if err != nil {
		return fmt.Errorf("Playwright's driver cannot be located (%v); run `buddi browser install --driver-only`", err)
	}
	out, err := d.Command("--version").Output()
	if err != nil || !strings.Contains(string(out), d.Version) {
		return fmt.Errorf("Playwright's driver %s is not installed or Node.js is missing; run `buddi browser install --driver-only` with PLAYWRIGHT_NODEJS_PATH set to your node", d.Version)
	}
	return nil
}
