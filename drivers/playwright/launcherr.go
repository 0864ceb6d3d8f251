package playwright

import (
	"strings"

	"github.com/buddi-dev/buddi/drivers"
)

// msgRoot is what Chromium's refusal to sandbox itself as root becomes.
const msgRoot = "The browser was started as root, where Chromium will not sandbox itself: run buddi as an ordinary user, let it run the browser as an unprivileged one (see `buddi doctor`), or set BUDDI_BROWSER_NO_SANDBOX=1 to run the browser without its sandbox."

// launchFailures maps what a failed launch prints to one sentence each.
var launchFailures = []struct {
	marks []string
	msg   string
}{
	{[]string{"please install the driver", "could not run driver"},
		"The Playwright driver is not installed: run `buddi browser install`."},
	{[]string{"error while loading shared libraries", "missing dependencies", "Host system is missing"}, ""},
	{[]string{"No usable sandbox", "setuid sandbox", "Failed to move to new namespace", "unprivileged user namespaces", "clone: Operation not permitted"},
		MsgNoSandbox},
	{[]string{"Running as root without --no-sandbox"}, msgRoot},
	{[]string{"Executable doesn't exist", "ENOENT", "spawn "},
		"The browser could not be started from where it was found: run `buddi browser install` or `apt-get install chromium`."},
	{[]string{"ProcessSingleton", "profile appears to be in use", "SingletonLock"},
		"The browser profile is in use by another browser: close it, or stop the other buddi."},
}

// MsgNoSandbox is what browser.status, doctor and a failed act say when the
// system lets no program set up Chromium's sandbox: the line to run once,
// the file that keeps it, and the container's flag.
const MsgNoSandbox = "The browser found no usable sandbox: on Ubuntu 23.10 or newer AppArmor blocks it, so run once `sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0` and, to keep it after a reboot, put the line kernel.apparmor_restrict_unprivileged_userns=0 in /etc/sysctl.d/60-buddi-browser.conf; in a Docker container, start it with --security-opt seccomp=unconfined."

// MissingLibraries is what browser.status, doctor and a failed act say when
// the browser lacks shared libraries: the exact command to run once with
// sudo, from the Playwright buddi ships (buddi never runs sudo itself).
func MissingLibraries() string {
	node, err := nodePath()
	if err != nil {
		node = "node"
	}
	return "The browser is missing shared libraries: run this once, with sudo (buddi never runs sudo itself): `sudo " +
		node + " " + cliPath() + " install-deps chromium`."
}

// launchError turns a failed launch into one sentence with code no_browser.
func launchError(err error) error {
	s := err.Error()
	for _, f := range launchFailures {
		for _, m := range f.marks {
			if strings.Contains(s, m) {
				msg := f.msg
				if msg == "" {
					msg = MissingLibraries()
				}
				return fail(drivers.CodeNoBrowser, err, msg)
			}
		}
	}
	return fail(drivers.CodeNoBrowser, err, "The browser did not start: run `buddi doctor` to see why.")
}
