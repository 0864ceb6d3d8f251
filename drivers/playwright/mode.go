package playwright

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// Name is the mode's name, as settings, /healthz and browser.status say it.
const Name = "playwright"

// ModeConfig is what the Playwright mode needs, as narrow functions the
// daemon wires.
type ModeConfig struct {
	// Browser is a driver's configuration as the owner's settings make it
	// now (channel, headless, the URL and field checks). It is read each
	// time a profile's driver is made, so settings changed with every
	// browser closed take effect with the next one.
	Browser func() Config
	// Confine starts what confines the browsers (the egress guard) the
	// first time a driver is made, and says how each browser is launched
	// behind it. Nil confines nothing (tests of the driver alone).
	Confine func() (Confinement, error)
}

// Confinement is how a browser is launched behind the egress guard: the
// switches that send it through the guard, and the network namespace
// (Config.NetNS) it runs in, when buddi runs as root.
type Confinement struct {
	Args  []string
	NetNS string
}

// Mode is the agents' own browser: one persistent profile of PerProfile
// sessions (<data>/browser/profile), or, when the owner keeps agents apart,
// a persistent profile of each agent's own (profiles.go).
//
// Where the browser starts: driverFor (below) is the one place the mode
// makes a profile's Driver; the Driver launches its Chromium in the
// background (start.go): the shared profile's when the daemon warms the
// mode as it starts (Warm), any profile's on the first act that needs it,
// and again whenever it died.
//
// Concurrency: m.mu guards the shared profile's driver and the agents'
// profiles; a driver is made under it (no browser starts then) and closed
// outside it.
type Mode struct {
	cfg ModeConfig

	mu     sync.Mutex
	drv    *Driver                  // the shared profile's
	agents map[string]*agentProfile // each agent's own
}

var (
	_ drivers.Mode          = (*Mode)(nil)
	_ drivers.Warmer        = (*Mode)(nil)
	_ drivers.Logins        = (*Mode)(nil)
	_ drivers.Installer     = (*Mode)(nil)
	_ drivers.AgentProfiles = (*Mode)(nil)
)

// NewMode returns the mode, checking the configuration a driver would get;
// nothing starts until a session opens.
func NewMode(cfg ModeConfig) (*Mode, error) {
	if _, err := New(cfg.Browser()); err != nil {
		return nil, err
	}
	return &Mode{cfg: cfg, agents: map[string]*agentProfile{}}, nil
}

// Name is "playwright".
func (m *Mode) Name() string { return Name }

// Capacity is one shared profile.
func (m *Mode) Capacity() int { return 1 }

// Open returns the shared profile's driver; its browser launches on the
// first session's first call.
func (m *Mode) Open(_ context.Context, i int) (drivers.Driver, error) {
	if i != 0 {
		return nil, fmt.Errorf("the agents' browser has one profile of %d sessions", drivers.PerProfile)
	}
	return m.shared()
}

func (m *Mode) shared() (*Driver, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.drv != nil {
		return m.drv, nil
	}
	d, err := m.driverFor("")
	if err != nil {
		return nil, err
	}
	m.drv = d
	return d, nil
}

// driverFor makes the driver of profile (the shared one when ""), behind
// the confinement; the caller holds m.mu.
func (m *Mode) driverFor(profile string) (*Driver, error) {
	c := m.cfg.Browser()
	c.Profile = profile
	if m.cfg.Confine != nil {
		cf, err := m.cfg.Confine()
		if err != nil {
			return nil, fmt.Errorf("the egress guard could not start: %w", err)
		}
		c.ExtraArgs = append(append([]string(nil), c.ExtraArgs...), cf.Args...)
		c.NetNS = cf.NetNS
	}
	return New(c)
}

// Logins lists the sites holding logins in the shared profile, starting
// its browser if it is not running.
func (m *Mode) Logins(ctx context.Context) (messages.Logins, error) {
	d, err := m.shared()
	if err != nil {
		return nil, err
	}
	return d.Logins(ctx)
}

// SignOut clears one site's logins, or every site's, in the shared profile.
func (m *Mode) SignOut(ctx context.Context, site string) ([]string, error) {
	d, err := m.shared()
	if err != nil {
		return nil, err
	}
	return d.SignOut(ctx, site)
}

// Warm starts the shared profile's browser in the background, so that the
// first session finds it ready.
func (m *Mode) Warm() {
	if d, err := m.shared(); err == nil {
		d.Start()
	}
}

// Launch is where the shared profile's browser is in its start; false
// before the mode made its driver.
func (m *Mode) Launch() (messages.BrowserLaunch, bool) {
	m.mu.Lock()
	d := m.drv
	m.mu.Unlock()
	if d == nil {
		return messages.BrowserLaunch{}, false
	}
	return d.Launch(), true
}

// Install installs Playwright's driver and its Chromium.
func (m *Mode) Install(ctx context.Context, progress io.Writer) error {
	return InstallBrowser(ctx, progress)
}

// Status is the shared profile's driver's report, or what a launch would
// use now.
func (m *Mode) Status(ctx context.Context) drivers.Status {
	m.mu.Lock()
	d := m.drv
	m.mu.Unlock()
	if d != nil {
		return d.Status(ctx)
	}
	probe, err := New(m.cfg.Browser())
	if err != nil {
		return drivers.Status{Driver: Name, Problem: err.Error()}
	}
	return probe.Status(ctx)
}

// Close releases the browsers (the shared profile's and the agents') within
// ctx; a close that takes longer goes on in the background.
func (m *Mode) Close(ctx context.Context) error {
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

// closing closes d in the background; the channel closes when it is done.
func closing(d *Driver) chan struct{} {
	done := make(chan struct{})
	go func() { defer close(done); _ = d.Close() }()
	return done
}
