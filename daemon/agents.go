package daemon

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/playwright"
)

// agentCapacity is how many agents' browsers may run at once when each
// agent has a profile of its own: each is a Chromium of its own.
const agentCapacity = 8

// agentProfile is one agent's own browser profile: its driver, and while
// it closes, the channel that closes when it is done.
type agentProfile struct {
	drv     *playwright.Driver
	closing chan struct{}
}

var _ drivers.AgentProfiles = (*playwrightMode)(nil)

// AgentProfileDir is where an agent's own browser profile lives.
func AgentProfileDir(dataDir, agentID string) string {
	return filepath.Join(dataDir, "browser", "agents", agentID, "profile")
}

// agentIDPattern is what an agent ID looks like (registry.newID): it names
// a directory, so nothing else is accepted.
var agentIDPattern = regexp.MustCompile(`^ag_[0-9a-f]{32}$`)

func checkAgentID(id string) error {
	if !agentIDPattern.MatchString(id) {
		return fmt.Errorf("daemon: %q is not an agent ID", id)
	}
	return nil
}

// OpenAgent returns the agent's own profile's driver; the browser launches
// on its first call. A close of the same profile still running is waited
// for: two browsers never share a profile directory.
func (m *playwrightMode) OpenAgent(ctx context.Context, agent string) (drivers.Driver, error) {
	if err := checkAgentID(agent); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if p := m.agents[agent]; p != nil {
		if p.closing == nil {
			return p.drv, nil
		}
		select {
		case <-p.closing:
		case <-ctx.Done():
			return nil, fmt.Errorf("the agent's browser is still closing: %w", ctx.Err())
		}
	}
	drv, err := m.newDriver(AgentProfileDir(m.cfg.DataDir, agent))
	if err != nil {
		return nil, err
	}
	m.agents[agent] = &agentProfile{drv: drv}
	return drv, nil
}

// CloseAgent starts closing the agent's browser and returns.
func (m *playwrightMode) CloseAgent(_ context.Context, agent string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if p := m.agents[agent]; p != nil && p.closing == nil {
		p.closing = closing(p.drv)
	}
	return nil
}

// DropAgent closes the agent's browser, then deletes its profile, in the
// background; an OpenAgent meanwhile waits for both.
func (m *playwrightMode) DropAgent(_ context.Context, agent string) error {
	if err := checkAgentID(agent); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	p := m.agents[agent]
	if p == nil {
		p = &agentProfile{}
		m.agents[agent] = p
	}
	before, dir := p.closing, filepath.Dir(AgentProfileDir(m.cfg.DataDir, agent))
	if before == nil && p.drv != nil {
		before = closing(p.drv)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if before != nil {
			<-before
		}
		if err := os.RemoveAll(dir); err != nil {
			m.cfg.Logger.Warn("the removed agent's browser profile could not be deleted", "dir", dir, "err", err)
		}
	}()
	p.closing = done
	return nil
}

// AgentCapacity is how many agents' browsers may run at once.
func (m *playwrightMode) AgentCapacity() int { return agentCapacity }

// closeAgents starts closing every agent's browser and forgets them; the
// caller holds m.mu.
func (m *playwrightMode) closeAgents() []chan struct{} {
	var out []chan struct{}
	for _, p := range m.agents {
		if p.closing == nil {
			p.closing = closing(p.drv)
		}
		out = append(out, p.closing)
	}
	m.agents = map[string]*agentProfile{}
	return out
}
