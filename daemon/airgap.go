package daemon

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/drivers"
)

// applyAirGap wipes the browser's saved logins when air-gap is turned on
// (it was off, or never set, the last time buddi started), after reading
// which sites held them, and records the setting and those sites, so the
// wipe happens once per turning on and the owner is told what it removed.
func (d *Daemon) applyAirGap(on bool) error {
	prev, err := d.store.AirGap()
	if err != nil {
		return err
	}
	if prev.On == on {
		return nil
	}
	rec := ledger.AirGap{On: on, At: time.Now()}
	if on {
		if rec.Sites, err = d.wipeLogins(); err != nil {
			return err
		}
	}
	return ledger.Check(ledger.Request(d.sys.Root, d.ledger, &ledger.Write{Owner: true, Ops: []ledger.Op{
		ledger.Put(ledger.AirGapKey(), rec)}}, 10*time.Second).Result())
}

// wipeLogins removes the browser profile with every saved login, and names
// the sites that held one.
func (d *Daemon) wipeLogins() ([]string, error) {
	browser := filepath.Join(d.opts.Config.DataDir, "browser")
	if agents := filepath.Join(browser, "agents"); exists(agents) {
		if err := os.RemoveAll(agents); err != nil {
			return nil, fmt.Errorf("daemon: air-gap is on but the saved logins in %s could not be removed: %w", agents, err)
		}
		d.notes = append(d.notes, "Air-gap is on: removed every agent's own browser profile with its saved logins.")
		d.opts.Log.Warn("air-gap turned on: removed the agents' own browser profiles", "profiles", agents)
	}
	profile := filepath.Join(browser, "profile")
	if _, err := os.Stat(profile); err != nil {
		return nil, nil
	}
	sites, known := d.loginSites()
	if err := os.RemoveAll(profile); err != nil {
		return nil, fmt.Errorf("daemon: air-gap is on but the saved logins in %s could not be removed: %w", profile, err)
	}
	// Said after the line that buddi is serving, where the owner reads it.
	switch {
	case !known:
		d.notes = append(d.notes, "Air-gap is on: removed the agents' browser profile with every saved login (which sites held one could not be read).")
	case len(sites) == 0:
		d.notes = append(d.notes, "Air-gap is on: removed the agents' browser profile; no site held a login in it.")
	default:
		d.notes = append(d.notes, fmt.Sprintf("Air-gap is on: removed the agents' browser profile and the saved logins of %s.", strings.Join(sites, ", ")))
	}
	d.opts.Log.Warn("air-gap turned on: removed the browser profile", "profile", profile, "sites", sites)
	return sites, nil
}

// loginSites reads which sites hold logins in the profile, through the
// mode's browser, which is closed again afterwards; known is false when
// the mode cannot tell.
func (d *Daemon) loginSites() (sites []string, known bool) {
	lg, ok := drivers.Current(d.mode).(drivers.Logins)
	if !ok {
		return nil, false
	}
	c, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	defer func() { _ = d.mode.Close(c) }()
	list, err := lg.Logins(c)
	if err != nil {
		d.opts.Log.Warn("air-gap: the sites holding logins could not be read", "err", err)
		return nil, false
	}
	for _, l := range list {
		sites = append(sites, l.Site)
	}
	return sites, true
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
