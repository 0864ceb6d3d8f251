package playwright

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/buddi-dev/buddi/drivers"
)

// channelPaths maps the Chrome channels Playwright knows to where Linux
// packages install them.
var channelPaths = map[string]string{
	"chrome":        "/opt/google/chrome/chrome",
	"chrome-beta":   "/opt/google/chrome-beta/chrome",
	"chrome-dev":    "/opt/google/chrome-unstable/chrome",
	"msedge":        "/opt/microsoft/msedge/msedge",
	"msedge-beta":   "/opt/microsoft/msedge-beta/msedge",
	"msedge-dev":    "/opt/microsoft/msedge-dev/msedge",
	"chromium":      "",
	"chrome-stable": "/opt/google/chrome/chrome",
}

// errNoBrowser is returned by Find when nothing usable is installed.
var errNoBrowser = fail(drivers.CodeNoBrowser, nil,
	"No browser is installed: run `buddi browser install` or `apt-get install chromium`.")

// Find returns the browser a launch would use, looked for in this order: the
// channel named in cfg, Playwright's own Chromium in its cache, Google
// Chrome, then Chromium on PATH. It is looked for again at every launch.
func Find(cfg Config) (string, error) {
	if cfg.Channel != "" && channelPaths[cfg.Channel] != "" {
		p := channelPaths[cfg.Channel]
		if executable(p) {
			return p, nil
		}
		return "", fail(drivers.CodeNoBrowser, nil, "The browser channel "+cfg.Channel+
			" is not installed at "+p+": install it, or unset "+EnvChannel+".")
	}
	if p := playwrightChromium(); p != "" {
		return p, nil
	}
	if executable(channelPaths["chrome"]) {
		return channelPaths["chrome"], nil
	}
	for _, name := range []string{"google-chrome", "google-chrome-stable", "chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errNoBrowser
}

// playwrightChromium returns the newest Chromium in Playwright's browser
// cache, or "".
func playwrightChromium() string {
	dir := os.Getenv("PLAYWRIGHT_BROWSERS_PATH")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".cache", "ms-playwright")
	}
	var found []string
	for _, pattern := range []string{"chromium-*/chrome-linux*/chrome"} {
		m, _ := filepath.Glob(filepath.Join(dir, pattern))
		found = append(found, m...)
	}
	sort.Slice(found, func(i, j int) bool { return revision(found[i]) > revision(found[j]) })
	for _, p := range found {
		if executable(p) {
			return p
		}
	}
	return ""
}

// revision reads the number in ".../chromium-1234/...".
func revision(p string) int {
	for _, part := range strings.Split(p, string(filepath.Separator)) {
		if n, ok := strings.CutPrefix(part, "chromium-"); ok {
			v, _ := strconv.Atoi(n)
			return v
		}
	}
	return 0
}

func executable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

var errNoNode = fail(drivers.CodeNoBrowser, nil,
	"Node.js is not installed, and the Playwright driver needs it: run `apt-get install nodejs`.")
