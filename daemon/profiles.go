package daemon

import (
	"context"
	"errors"
	"fmt"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/playwright"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/egress"
)

type profileSet = func(int) (drivers.Driver, error)

// simProfiles simulates as many profiles as sessions need.
func (d *Daemon) simProfiles() (profileSet, int, func() drivers.Status, error) {
	status := func() drivers.Status { return drivers.Status{Driver: "sim", Found: true, Headless: true} }
	return func(int) (drivers.Driver, error) { return sim.New(sim.Config{}), nil }, 1 << 20, status, nil
}

// playwrightProfiles is the one persistent profile of the agents' browser,
// confined by the egress guard, which starts with the browser.
func (d *Daemon) playwrightProfiles() (profileSet, int, func() drivers.Status, error) {
	cfg := d.playwrightConfig()
	probe, err := playwright.New(cfg)
	if err != nil {
		return nil, 0, nil, err
	}
	var drv drivers.Driver
	status := func() drivers.Status {
		if drv != nil {
			return drv.Status(context.Background())
		}
		return probe.Status(context.Background())
	}
	return func(i int) (drivers.Driver, error) {
		if i != 0 {
			return nil, fmt.Errorf("the agents' browser has one profile of %d sessions", 8)
		}
		g, err := d.egress.listen()
		if err != nil {
			return nil, fmt.Errorf("the egress guard could not start: %w", err)
		}
		c := cfg
		c.ExtraArgs = egress.ChromiumFlags(g.Addr())
		c.NetNS = d.egress.netNS()
		p, err := playwright.New(c)
		if err != nil {
			return nil, err
		}
		drv = p
		return p, nil
	}, 1, status, nil
}

func (d *Daemon) playwrightConfig() playwright.Config {
	o := d.opts.Config
	pol := d.egress.policy.p
	return playwright.Config{
		DataDir: o.DataDir, Channel: o.Channel, NoSandbox: o.NoSandbox, BrowserUser: o.BrowserUser, Logger: d.opts.Log,
		CheckURL: func(raw string) error { return coded(pol.CheckURL(raw, egress.SourceRedirect)) },
		CheckField: func(f playwright.Field, value string) error {
			return coded(egress.CheckTyping(egress.FieldInfo{Type: f.Type, Autocomplete: f.Autocomplete,
				Name: f.Name, ID: f.ID, InputMode: f.InputMode}, value))
		},
	}
}

// coded turns an egress refusal into a driver error that keeps its code and
// its sentence.
func coded(err error) error {
	var r *egress.Refusal
	if errors.As(err, &r) {
		return &drivers.Error{Code: drivers.Code(r.Code), Message: r.Reason}
	}
	return err
}
