package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/doctor"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/native"
	"github.com/buddi-dev/buddi/drivers/playwright"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/drivers/walker"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/messages"
)

// buildModes makes the modes this install offers and the root that holds
// the current one: the Playwright mode always; the simulated one when the
// configuration asks for it (BUDDI_DRIVER=sim), or the mode the caller
// passes (tests and the load test). This is the one place production code
// chooses the simulated driver. Use my apps is offered when its helper is
// found and finds a display and the accessibility bus; it is never the
// configuration's, only the owner's choice in settings.json, and a stored
// choice on a host without the helper starts the configuration's mode and
// leaves the file as written. The mode to start in is the caller's, else
// the one settings.json names if offered, else the configuration's.
func (d *Daemon) buildModes(c config.Config, fileMode string) (*modeRoot, error) {
	pm, err := newPlaywrightMode(d.playwrightConfig(c), d)
	if err != nil {
		return nil, err
	}
	yours, err := d.yourBrowserMode()
	if err != nil {
		return nil, err
	}
	modes := map[string]drivers.Mode{pm.Name(): pm, yours.Name(): yours}
	start := c.Driver
	if c.Driver == "sim" {
		modes["sim"] = sim.NewMode(sim.Config{Hosts: c.SimHosts}, 0)
	}
	if m := d.opts.Mode; m != nil {
		modes[m.Name()] = m
	}
	computer, why := d.computerMode(c)
	if computer != nil {
		modes[computer.Name()] = computer
	}
	switch {
	case d.opts.Mode != nil:
		start = d.opts.Mode.Name()
	case modes[fileMode] != nil:
		start = fileMode
	}
	if modes[start] == nil {
		return nil, fmt.Errorf("daemon: unknown driver %q", start)
	}
	root := newModeRoot(modes, start)
	root.why[native.Name] = why
	return root, nil
}

func (d *Daemon) playwrightConfig(c config.Config) playwright.Config {
	cfg := doctor.PlaywrightConfig(c)
	cfg.Logger = d.opts.Log
	// The URL rules are set once egress is built; the mode reads them then.
	return cfg
}

// playwrightMode is the agents' own browser: one persistent profile of
// PerProfile sessions, confined by the egress guard, which starts with it;
// or, when the owner keeps agents apart, a persistent profile of each
// agent's own (agents.go).
type playwrightMode struct {
	cfg   playwright.Config
	d     *Daemon
	probe *playwright.Driver

	mu     sync.Mutex
	drv    *playwright.Driver       // the shared profile's
	agents map[string]*agentProfile // each agent's own, with BUDDI_BROWSER_PROFILES=agent
}

var _ drivers.Mode = (*playwrightMode)(nil)

func newPlaywrightMode(cfg playwright.Config, d *Daemon) (*playwrightMode, error) {
	probe, err := playwright.New(cfg)
	if err != nil {
		return nil, err
	}
	return &playwrightMode{cfg: cfg, d: d, probe: probe, agents: map[string]*agentProfile{}}, nil
}

func (m *playwrightMode) Name() string  { return "playwright" }
func (m *playwrightMode) Capacity() int { return 1 }

// Open starts the guard and returns the profile's driver; the browser
// launches on the first session's first call.
func (m *playwrightMode) Open(_ context.Context, i int) (drivers.Driver, error) {
	if i != 0 {
		return nil, fmt.Errorf("the agents' browser has one profile of %d sessions", drivers.PerProfile)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.drv != nil {
		return m.drv, nil
	}
	p, err := m.newDriver("")
	if err != nil {
		return nil, err
	}
	m.drv = p
	return p, nil
}

// newDriver builds a driver on profile (the shared one when ""), confined
// by the guard, which starts with the first driver.
func (m *playwrightMode) newDriver(profile string) (*playwright.Driver, error) {
	eg := m.d.egress
	g, err := eg.listen()
	if err != nil {
		return nil, fmt.Errorf("the egress guard could not start: %w", err)
	}
	c := m.cfg
	c.Profile = profile
	c.ExtraArgs = egress.ChromiumFlags(g.Addr())
	c.NetNS = eg.netNS()
	pol := eg.policy
	c.CheckURL = func(raw string) error { return pol.rules().CheckURL(raw, egress.SourceRedirect) }
	c.OwnerURL = func(raw string) error { return pol.rules().CheckURL(raw, egress.SourceOwner) }
	c.OnRefused = m.d.refusedByBrowser
	c.CheckField = walker.CheckTyping
	if c.FieldRules, err = json.Marshal(egress.CredentialRules()); err != nil {
		return nil, err
	}
	return playwright.New(c)
}

// Logins lists the sites holding logins in the profile, starting the
// browser if it is not running.
func (m *playwrightMode) Logins(ctx context.Context) (messages.Logins, error) {
	drv, err := m.Open(ctx, 0)
	if err != nil {
		return nil, err
	}
	return drv.(*playwright.Driver).Logins(ctx)
}

// SignOut clears one site's logins, or every site's.
func (m *playwrightMode) SignOut(ctx context.Context, site string) ([]string, error) {
	drv, err := m.Open(ctx, 0)
	if err != nil {
		return nil, err
	}
	return drv.(*playwright.Driver).SignOut(ctx, site)
}

// Install installs Playwright's driver and its Chromium.
func (m *playwrightMode) Install(ctx context.Context, progress io.Writer) error {
	return playwright.InstallBrowser(ctx, progress)
}

var (
	_ drivers.Logins    = (*playwrightMode)(nil)
	_ drivers.Installer = (*playwrightMode)(nil)
)

// Status is the open driver's report, or what a launch would use.
func (m *playwrightMode) Status(ctx context.Context) drivers.Status {
	m.mu.Lock()
	drv := m.drv
	m.mu.Unlock()
	if drv != nil {
		return drv.Status(ctx)
	}
	return m.probe.Status(ctx)
}

// Close releases the browsers (the shared profile's and the agents') within
// ctx; a close that takes longer goes on in the background.
func (m *playwrightMode) Close(ctx context.Context) error {
	m.mu.Lock()
	all := m.closeAgents()
	if m.drv != nil {
		all = append(all, closing(m.drv))
	}
	m.drv = nil
	m.mu.Unlock()
	for _, done := range all {
		select {
		case <-done:
		case <-ctx.Done():
			return fmt.Errorf("closing the browser did not finish in time: %w", ctx.Err())
		}
	}
	return nil
}

// closing closes drv in the background; the channel closes when it is done.
func closing(drv *playwright.Driver) chan struct{} {
	done := make(chan struct{})
	go func() { defer close(done); _ = drv.Close() }()
	return done
}
