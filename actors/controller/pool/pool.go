// Package pool places sessions onto browser profiles. With the one shared
// profile of the spec, PerProfile sessions go to a profile and a new one is
// opened from the mode when all are full, up to the mode's capacity. With a
// profile per agent (the mode's AgentProfiles), each agent's sessions go to
// its own profile, and when AgentCapacity profiles are open an idle one of
// another agent is closed to make room. It holds no lock; the controller
// actor is its only user, and it closes the profiles through the mode.
package pool

import (
	"context"
	"fmt"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// Pool is the profiles opened so far and how many sessions each holds.
type Pool struct {
	mode     drivers.Mode
	agents   drivers.AgentProfiles // nil: every agent shares the mode's profiles
	per      int
	profiles []*profile // by index; a closed one keeps its place
}

type profile struct {
	drv    drivers.Driver
	n      int
	agent  string // the agent it belongs to; "" when shared
	closed bool
}

// New returns an empty pool over mode, per sessions to a profile. With
// agents set, each agent gets profiles of its own from it.
func New(mode drivers.Mode, per int, agents drivers.AgentProfiles) *Pool {
	return &Pool{mode: mode, per: per, agents: agents}
}

// Place finds a profile with room for a session of agent (its own, with a
// profile per agent), opening one when needed, and counts the session in.
func (p *Pool) Place(ctx context.Context, agent string) (int, drivers.Driver, *messages.Error) {
	if p.agents == nil {
		agent = ""
	}
	open := 0
	for i, pr := range p.profiles {
		if pr.closed {
			continue
		}
		open++
		if pr.agent == agent && pr.n < p.per {
			pr.n++
			return i, pr.drv, nil
		}
	}
	if e := p.room(ctx, agent, open); e != nil {
		return 0, nil, e
	}
	var drv drivers.Driver
	var err error
	if p.agents != nil {
		drv, err = p.agents.OpenAgent(ctx, agent)
	} else {
		drv, err = p.mode.Open(ctx, len(p.profiles))
	}
	if err != nil {
		return 0, nil, &messages.Error{Code: messages.CodeNoBrowser, Message: err.Error()}
	}
	p.profiles = append(p.profiles, &profile{drv: drv, n: 1, agent: agent})
	return len(p.profiles) - 1, drv, nil
}

// room makes sure one more profile may open: under the mode's capacity,
// or, with a profile per agent, by closing an idle profile of another agent.
func (p *Pool) room(ctx context.Context, agent string, open int) *messages.Error {
	if p.agents == nil {
		if len(p.profiles) >= p.mode.Capacity() {
			return messages.Errorf(messages.CodeTooManySessions,
				"All %d browser sessions are in use; release one (`buddi release CONV`) and try again.", p.mode.Capacity()*p.per)
		}
		return nil
	}
	if p.holds(agent) {
		return messages.Errorf(messages.CodeTooManySessions,
			"All %d sessions of this agent's browser profile are in use; release one (`buddi release CONV`) and try again.", p.per)
	}
	if open < p.agents.AgentCapacity() {
		return nil
	}
	for _, pr := range p.profiles {
		if !pr.closed && pr.n == 0 && pr.agent != agent {
			pr.closed = true
			_ = p.agents.CloseAgent(ctx, pr.agent) // the mode closes it in the background
			return nil
		}
	}
	return messages.Errorf(messages.CodeTooManySessions,
		"The %d agents' browser profiles are all in use; the owner can release a session (`buddi release CONV`) to make room.", p.agents.AgentCapacity())
}

// holds reports whether agent has an open profile.
func (p *Pool) holds(agent string) bool {
	for _, pr := range p.profiles {
		if !pr.closed && pr.agent == agent {
			return true
		}
	}
	return false
}

// Drop closes the profile of a removed agent and has the mode delete its
// data; the agent's sessions have ended. Without a profile per agent there
// is nothing of the agent's own to drop.
func (p *Pool) Drop(ctx context.Context, agent string) {
	if p.agents == nil {
		return
	}
	for _, pr := range p.profiles {
		if pr.agent == agent {
			pr.closed = true
		}
	}
	_ = p.agents.DropAgent(ctx, agent)
}

// Free counts a session of profile i out.
func (p *Pool) Free(i int) {
	if i >= 0 && i < len(p.profiles) && p.profiles[i].n > 0 {
		p.profiles[i].n--
	}
}

// Used is how many sessions profile i holds.
func (p *Pool) Used(i int) int {
	if i < 0 || i >= len(p.profiles) {
		return 0
	}
	return p.profiles[i].n
}

// Close releases every profile through the mode, within ctx.
func (p *Pool) Close(ctx context.Context) error {
	p.profiles = nil
	if err := p.mode.Close(ctx); err != nil {
		return fmt.Errorf("pool: closing the browsers: %w", err)
	}
	return nil
}

// Profile returns profile i's driver, opening it if needed, without
// counting a session in: for the owner's reads of the profile (its logins).
func (p *Pool) Profile(ctx context.Context, i int) (drivers.Driver, *messages.Error) {
	if i < len(p.profiles) {
		return p.profiles[i].drv, nil
	}
	if i != len(p.profiles) || i >= p.mode.Capacity() {
		return nil, messages.Errorf(messages.CodeNotFound, "There is no browser profile %d.", i)
	}
	drv, err := p.mode.Open(ctx, i)
	if err != nil {
		return nil, &messages.Error{Code: messages.CodeNoBrowser, Message: err.Error()}
	}
	p.profiles = append(p.profiles, &profile{drv: drv})
	return drv, nil
}

// Capacity counts the profiles the pool may open and has open, and the
// sessions they may hold and hold.
func (p *Pool) Capacity() messages.Capacity {
	total := p.mode.Capacity()
	if p.agents != nil {
		total = p.agents.AgentCapacity()
	}
	open, sessions := 0, 0
	for _, pr := range p.profiles {
		if !pr.closed {
			open++
			sessions += pr.n
		}
	}
	return messages.Capacity{Profiles: messages.NewSlots(total, open), Sessions: messages.NewSlots(total*p.per, sessions)}
}
