package daemon

import (
	"context"
	"fmt"

	"github.com/buddi-dev/buddi/drivers"
)

// drivers returns the profile factory the controller places sessions with.
func (d *Daemon) drivers() (func(int) (drivers.Driver, error), int, func() drivers.Status, error) {
	o := d.opts
	if o.Profile != nil {
		max := o.MaxProfiles
		if max == 0 {
			max = 1
		}
		var first drivers.Driver
		status := func() drivers.Status {
			if first != nil {
				return first.Status(context.Background())
			}
			return drivers.Status{Driver: "custom"}
		}
		return func(i int) (drivers.Driver, error) {
			drv, err := o.Profile(i)
			if i == 0 && err == nil {
				first = drv
			}
			return drv, err
		}, max, status, nil
	}
	switch o.Config.Driver {
	case "sim":
		return d.simProfiles()
	case "playwright":
		return d.playwrightProfiles()
	}
	return nil, 0, nil, fmt.Errorf("daemon: unknown driver %q", o.Config.Driver)
}
