package sim

import (
	"context"
	"fmt"
	"sync"

	"github.com/buddi-dev/buddi/drivers"
)

var _ drivers.Mode = (*Mode)(nil)

// Mode simulates as many profiles as sessions need, each a Driver over the
// same Config. The profiles share one copy of the site's page templates, as
// the profiles of a real browser hold their pages outside buddi's memory:
// what a profile keeps of its own (tabs, history, form values) is in its
// Driver.
type Mode struct {
	cfg      Config
	sites    sites // the page templates every profile serves
	profiles int
	// OnOpen, when set before the first Open, is told of each new driver.
	OnOpen func(*Driver)

	mu      sync.Mutex
	drivers map[int]*Driver
	agents  map[string]*Driver // profiles of agents' own
	opened  int                // drivers built since NewMode
}

var _ drivers.AgentProfiles = (*Mode)(nil)

// NewMode returns a sim mode of profiles profiles (no bound when ≤ 0).
func NewMode(cfg Config, profiles int) *Mode {
	if profiles <= 0 {
		profiles = 1 << 20
	}
	cfg = cfg.withDefaults()
	return &Mode{cfg: cfg, sites: newSites(cfg), profiles: profiles, drivers: map[int]*Driver{}, agents: map[string]*Driver{}}
}

// Name is "sim".
func (m *Mode) Name() string { return "sim" }

// Capacity is the number of profiles.
func (m *Mode) Capacity() int { return m.profiles }

// Open returns profile i's driver, building it on first use.
func (m *Mode) Open(_ context.Context, i int) (drivers.Driver, error) {
	if i < 0 || i >= m.profiles {
		return nil, fmt.Errorf("sim: profile %d is outside 0..%d", i, m.profiles-1)
	}
	return build(m, func() map[int]*Driver { return m.drivers }, i), nil
}

// build returns the driver held at key, building it on first use; held
// gives the map, read under m.mu.
func build[K comparable](m *Mode, held func() map[K]*Driver, key K) *Driver {
	m.mu.Lock()
	d, ok := held()[key]
	if !ok {
		d = newDriver(m.cfg, m.sites)
		held()[key] = d
		m.opened++
	}
	m.mu.Unlock()
	if !ok && m.OnOpen != nil {
		m.OnOpen(d)
	}
	return d
}

// OpenAgent returns the agent's own profile's driver, building it on first use.
func (m *Mode) OpenAgent(_ context.Context, agent string) (drivers.Driver, error) {
	return build(m, func() map[string]*Driver { return m.agents }, agent), nil
}

// CloseAgent closes the agent's profile's driver and forgets it.
func (m *Mode) CloseAgent(_ context.Context, agent string) error {
	m.mu.Lock()
	d := m.agents[agent]
	delete(m.agents, agent)
	m.mu.Unlock()
	if d != nil {
		return d.Close()
	}
	return nil
}

// DropAgent is CloseAgent: a simulated profile keeps no data.
func (m *Mode) DropAgent(ctx context.Context, agent string) error { return m.CloseAgent(ctx, agent) }

// AgentCapacity is the number of profiles, as for shared ones.
func (m *Mode) AgentCapacity() int { return m.profiles }

// Drivers lists the drivers opened so far and still open.
func (m *Mode) Drivers() []*Driver {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]*Driver, 0, len(m.drivers)+len(m.agents))
	for _, d := range m.drivers {
		out = append(out, d)
	}
	for _, d := range m.agents {
		out = append(out, d)
	}
	return out
}

// Opened is how many drivers the mode built since NewMode.
func (m *Mode) Opened() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.opened
}

// Status is a driver's status: always found and headless.
func (m *Mode) Status(context.Context) drivers.Status {
	running := len(m.Drivers()) > 0
	return drivers.Status{Driver: "sim", Browser: Origin, Found: true, Headless: true, Running: running}
}

// Close closes every driver and forgets it: the next Open builds a new
// one. It never waits.
func (m *Mode) Close(context.Context) error {
	m.mu.Lock()
	all, agents := m.drivers, m.agents
	m.drivers, m.agents = map[int]*Driver{}, map[string]*Driver{}
	m.mu.Unlock()
	for _, d := range all {
		_ = d.Close()
	}
	for _, d := range agents {
		_ = d.Close()
	}
	return nil
}

// ServedOrigins is the simulated site's origin: the mode serves it itself.
func (m *Mode) ServedOrigins() []string { return []string{Origin} }

var _ drivers.Served = (*Mode)(nil)
