package playwright

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/buddi-dev/buddi/drivers"
)

// launchPlan returns what the stand-in for node must do for this launch,
// or nil when buddi starts node itself: no account to become and no
// network namespace to join.
func launchPlan(cfg *Config, a *account, nodeJS, browserPath string) (*plan, error) {
	if a == nil && cfg.NetNS == "" {
		return nil, nil
	}
	p := &plan{Parent: os.Getpid(), CLI: cliPath(), Node: nodeJS, NetNS: cfg.NetNS, Version: driverVersion()}
	if a == nil {
		return p, nil
	}
	p.Account = &planAccount{Name: a.name, UID: a.uid, GID: a.gid}
	p.Profile = cfg.profileDir()
	driver := DriverDir()
	if os.Getenv("PLAYWRIGHT_CLI_PATH") != "" {
		driver = filepath.Dir(p.CLI)
	}
	list, err := needs(p.Profile, driver, nodeJS, browserPath)
	if err != nil {
		return nil, launchError(err)
	}
	if p.Views, err = a.planViews(list); err != nil || len(p.Views) == 0 {
		return p, err
	}
	if mountNamespaces() == nil {
		return p, nil
	}
	// No view of its own for the browser here: open buddi's own
	// directories on the way to the profile to the account's group, and
	// let the account be stuck nowhere else.
	if err := openToGroup(cfg, a); err != nil {
		return nil, err
	}
	if p.Views, err = a.planViews(list); err != nil {
		return nil, err
	}
	if len(p.Views) > 0 {
		return nil, fail(drivers.CodeNoBrowser, mountNamespaces(), fmt.Sprintf(
			"The browser runs as the user %s, which cannot enter %s, and this system does not let buddi give the browser a view of its own files: let other users enter it (`chmod o+x %s`), choose a data directory they can reach (--data), or set %s=1.",
			a.name, p.Views[0].Dir, p.Views[0].Dir, EnvNoSandbox))
	}
	return p, nil
}

// openToGroup lets the account's group enter (only enter: 0710) the data
// directory and the folders from it down to the profile (browser, or
// browser/agents/<id> for an agent's own), which buddi owns. Their files
// stay buddi's and closed to the account.
func openToGroup(cfg *Config, a *account) error {
	for _, d := range pathTo(cfg.DataDir, filepath.Dir(cfg.profileDir())) {
		closed, err := a.closedOn(filepath.Join(d, "x"))
		if err != nil {
			return launchError(err)
		}
		if closed != d {
			continue
		}
		if err := os.Lchown(d, -1, a.gid); err != nil {
			return launchError(err)
		}
		if err := os.Chmod(d, 0o710); err != nil {
			return launchError(err)
		}
	}
	return nil
}

// pathTo lists top and each directory below it down to dir; only top when
// dir is not under it.
func pathTo(top, dir string) []string {
	out := []string{top}
	rel, err := filepath.Rel(top, dir)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return out
	}
	d := top
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		d = filepath.Join(d, part)
		out = append(out, d)
	}
	return out
}
