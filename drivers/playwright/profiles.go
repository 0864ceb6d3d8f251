package playwright

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/buddi-dev/buddi/drivers"
)

// AgentCapacity is how many agents' browsers may run at once when each
// agent has a profile of its own: each is a Chromium of its own.
const AgentCapacity = 8

// agentProfile is one agent's own browser profile: its driver, and while
// it closes, the channel that closes when it is done.
type agentProfile struct {
	drv     *Driver
	closing chan struct{}
}

// AgentProfileDir is where an agent's own browser profile lives.
func AgentProfileDir(dataDir, agentID string) string {
	return filepath.Join(dataDir, "browser", "agents", agentID, "profile")
}

// agentIDPattern is what an agent ID looks like (registry.newID): it names
// a directory, so nothing else is accepted.
var agentIDPattern = regexp.MustCompile(`^ag_[0-9a-f]{32}$`)

func checkAgentID(id string) error {
	if !agentIDPattern.MatchString(id) {
		return fmt.Errorf("playwright: %q is not an agent ID", id)
	}
	return nil
}

// OpenAgent returns the agent's own profile's driver; the browser launches
// on its first call. A close of the same profile still running is waited
// for: two browsers never share a profile directory.
func (m *Mode) OpenAgent(ctx context.Context, agent string) (drivers.Driver, error) {
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
	d, err := m.driverFor(AgentProfileDir(m.cfg.Browser().DataDir, agent))
	if err != nil {
		return nil, err
	}
	m.agents[agent] = &agentProfile{drv: d}
	return d, nil
}

// CloseAgent starts closing the agent's browser and returns.
func (m *Mode) CloseAgent(_ context.Context, agent string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if p := m.agents[agent]; p != nil && p.closing == nil {
		p.closing = closing(p.drv)
	}
	return nil
}

// DropAgent closes the agent's browser, then deletes its profile, in the
// background; an OpenAgent meanwhile waits for both.
func (m *Mode) DropAgent(_ context.Context, agent string) error {
	if err := checkAgentID(agent); err != nil {
		return err
	}
	c := m.cfg.Browser()
	m.mu.Lock()
	defer m.mu.Unlock()
	p := m.agents[agent]
	if p == nil {
		p = &agentProfile{}
		m.agents[agent] = p
	}
	before, dir := p.closing, filepath.Dir(AgentProfileDir(c.DataDir, agent))
	if before == nil && p.drv != nil {
		before = closing(p.drv)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if before != nil {
			<-before
		}
		if err := os.RemoveAll(dir); err != nil && c.Logger != nil {
			c.Logger.Warn("the removed agent's browser profile could not be deleted", "dir", dir, "err", err)
		}
	}()
	p.closing = done
	return nil
}

// AgentCapacity is how many agents' browsers may run at once.
func (m *Mode) AgentCapacity() int { return AgentCapacity }

// closeAgents starts closing every agent's browser and forgets them; the
// caller holds m.mu.
func (m *Mode) closeAgents() []chan struct{} {
	var out []chan struct{}
	for _, p := range m.agents {
		if p.closing == nil && p.drv != nil {
			p.closing = closing(p.drv)
		}
		if p.closing != nil {
			out = append(out, p.closing)
		}
	}
	m.agents = map[string]*agentProfile{}
	return out
}

// Wiped is what WipeProfiles removed: every agent's own profile (Agents),
// the shared profile (Profile), and the sites that held a login in it
// (Sites, when Known).
type Wiped struct {
	Agents, Profile bool
	Sites           []string
	Known           bool
}

// WipeProfiles removes every browser profile under dataDir with its saved
// logins (air-gap turned on). Before the shared profile goes, sites, when
// set, names the sites that held a login in it: it may start the browser
// and must close it again; known false when it cannot tell.
func WipeProfiles(dataDir string, sites func() (list []string, known bool)) (Wiped, error) {
	var w Wiped
	browser := filepath.Join(dataDir, "browser")
	if agents := filepath.Join(browser, "agents"); exists(agents) {
		if err := os.RemoveAll(agents); err != nil {
			return w, fmt.Errorf("the saved logins in %s could not be removed: %w", agents, err)
		}
		w.Agents = true
	}
	profile := filepath.Join(browser, "profile")
	if !exists(profile) {
		return w, nil
	}
	if sites != nil {
		w.Sites, w.Known = sites()
	}
	if err := os.RemoveAll(profile); err != nil {
		return w, fmt.Errorf("the saved logins in %s could not be removed: %w", profile, err)
	}
	w.Profile = true
	return w, nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
