package settings

import (
	"fmt"
	"log/slog"
	"strings"

	"github.com/buddi-dev/buddi/drivers/playwright"
)

// AirGap turns air-gap on or off across the install. Turned on (it was
// off, or never set, the last time it was recorded), it wipes the
// browser's saved logins, after reading which sites held them, so the wipe
// happens once per turning on and the owner is told what it removed.
type AirGap struct {
	// Recorded is air-gap as last recorded (in the ledger).
	Recorded func() (on bool, err error)
	// Record keeps the setting, with the sites whose logins went.
	Record func(on bool, sites []string) error
	// Wipe removes every browser profile (playwright.WipeProfiles); every
	// browser is closed.
	Wipe func() (playwright.Wiped, error)
	// Rules swaps the URL rules the browser is held to (egress.Live).
	Rules func(on bool) error
	// Say tells the owner one line.
	Say func(line string)
	Log *slog.Logger
}

// Set makes air-gap on or off: the logins wiped when it is turned on, the
// setting recorded, the rules swapped.
func (a AirGap) Set(on bool) error {
	was, err := a.Recorded()
	if err != nil {
		return err
	}
	if was != on {
		var sites []string
		if on {
			w, err := a.Wipe()
			if err != nil {
				return fmt.Errorf("settings: air-gap is on but %w", err)
			}
			a.tell(w)
			sites = w.Sites
		}
		if err := a.Record(on, sites); err != nil {
			return err
		}
	}
	if err := a.Rules(on); err != nil {
		return fmt.Errorf("settings: the egress rules: %w", err)
	}
	return nil
}

// tell says what the wipe removed.
func (a AirGap) tell(w playwright.Wiped) {
	if w.Agents {
		a.Say("Air-gap is on: removed every agent's own browser profile with its saved logins.")
		a.Log.Warn("air-gap turned on: removed the agents' own browser profiles")
	}
	switch {
	case !w.Profile:
		return
	case !w.Known:
		a.Say("Air-gap is on: removed the agents' browser profile with every saved login (which sites held one could not be read).")
	case len(w.Sites) == 0:
		a.Say("Air-gap is on: removed the agents' browser profile; no site held a login in it.")
	default:
		a.Say(fmt.Sprintf("Air-gap is on: removed the agents' browser profile and the saved logins of %s.", strings.Join(w.Sites, ", ")))
	}
	a.Log.Warn("air-gap turned on: removed the browser profile", "sites", w.Sites)
}
