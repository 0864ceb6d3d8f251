package playwright

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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

// MsgNoBrowser is what browser.status, doctor and a failed act say when no
// browser is installed for the agents.
const MsgNoBrowser = "No browser installed for the agents yet: run `buddi browser install` (the owner API's POST /api/browser/install does the same), or install Google Chrome."

// errNoBrowser is returned by Find when nothing usable is installed.
var errNoBrowser = fail(drivers.CodeNoBrowser, nil, MsgNoBrowser)

// lookup is where Find looks: the system's, or a test's.
type lookup struct {
	goos       string
	home       string
	browsers   string // PLAYWRIGHT_BROWSERS_PATH
	executable func(string) bool
	onPath     func(string) (string, error)
}

func systemLookup() lookup {
	home, _ := os.UserHomeDir()
	return lookup{goos: runtime.GOOS, home: home, browsers: os.Getenv("PLAYWRIGHT_BROWSERS_PATH"),
		executable: executable, onPath: exec.LookPath}
}

// Find returns the browser a launch would use, looked for in this order: the
// channel named in cfg; Playwright's own Chromium in its cache; Google
// Chrome where it is installed (/Applications/Google Chrome.app on macOS,
// /opt/google/chrome on Linux, then google-chrome or google-chrome-stable
// on PATH); last, a distribution's chromium on PATH. It is looked for again
// at every launch.
func Find(cfg Config) (string, error) { return systemLookup().find(cfg) }

func (l lookup) find(cfg Config) (string, error) {
	if cfg.Channel != "" && channelPaths[cfg.Channel] != "" {
		p := l.channelPath(cfg.Channel)
		if l.executable(p) {
			return p, nil
		}
		return "", fail(drivers.CodeNoBrowser, nil, "The browser channel "+cfg.Channel+
			" is not installed at "+p+": install it, or unset "+EnvChannel+".")
	}
	if p := l.playwrightChromium(); p != "" {
		return p, nil
	}
	if p := l.channelPath("chrome"); l.executable(p) {
		return p, nil
	}
	for _, name := range []string{"google-chrome", "google-chrome-stable", "chromium", "chromium-browser"} {
		if p, err := l.onPath(name); err == nil {
			return p, nil
		}
	}
	return "", errNoBrowser
}

// macChannels are where macOS installs the Chrome channels Playwright knows.
var macChannels = map[string]string{
	"chrome":        "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
	"chrome-stable": "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
	"chrome-beta":   "/Applications/Google Chrome Beta.app/Contents/MacOS/Google Chrome Beta",
	"chrome-dev":    "/Applications/Google Chrome Dev.app/Contents/MacOS/Google Chrome Dev",
	"msedge":        "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
	"msedge-beta":   "/Applications/Microsoft Edge Beta.app/Contents/MacOS/Microsoft Edge Beta",
	"msedge-dev":    "/Applications/Microsoft Edge Dev.app/Contents/MacOS/Microsoft Edge Dev",
}

func (l lookup) channelPath(channel string) string {
	if l.goos == "darwin" {
		return macChannels[channel]
	}
	return channelPaths[channel]
}

// playwrightChromium returns the newest Chromium in Playwright's browser
// cache, or "".
func (l lookup) playwrightChromium() string {
	dir := l.browsers
	pattern := "chromium-*/chrome-linux*/chrome"
	if dir == "" && l.home != "" {
		dir = filepath.Join(l.home, ".cache", "ms-playwright")
	}
	if l.goos == "darwin" {
		if l.browsers == "" && l.home != "" {
			dir = filepath.Join(l.home, "Library", "Caches", "ms-playwright")
		}
		pattern = "chromium-*/chrome-mac*/Chromium.app/Contents/MacOS/Chromium"
	}
	if dir == "" {
		return ""
	}
	found, _ := filepath.Glob(filepath.Join(dir, pattern))
	sort.Slice(found, func(i, j int) bool { return revision(found[i]) > revision(found[j]) })
	for _, p := range found {
		if l.executable(p) {
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
