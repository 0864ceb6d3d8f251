package daemon

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/buddi-dev/buddi/actors/ledger"
)

// applyAirGap wipes the browser's saved logins when air-gap is turned on
// (it was off, or never set, the last time buddi started), and records the
// setting so the wipe happens once per turning on.
func (d *Daemon) applyAirGap(on bool) error {
	prev, err := d.store.AirGap()
	if err != nil {
		return err
	}
	if prev.On == on {
		return nil
	}
	if on {
		profile := filepath.Join(d.opts.Config.DataDir, "browser", "profile")
		if _, err := os.Stat(profile); err == nil {
			if err := os.RemoveAll(profile); err != nil {
				return fmt.Errorf("daemon: air-gap is on but the saved logins in %s could not be removed: %w", profile, err)
			}
			d.opts.Log.Warn("air-gap turned on: removed the browser profile with every saved login", "profile", profile)
		}
	}
	return ledger.Check(ledger.Request(d.sys.Root, d.ledger, &ledger.Write{Owner: true, Ops: []ledger.Op{
		ledger.Put(ledger.AirGapKey(), ledger.AirGap{On: on, At: time.Now()})}}, 10*time.Second).Result())
}
