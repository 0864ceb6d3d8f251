// Package pool places sessions onto browser profiles: PerProfile sessions
// to a profile, a new profile opened from the mode when all are full, up to
// the mode's capacity. It holds no lock; the controller actor is its only
// user, and it closes the profiles through the mode.
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
	per      int
	profiles []*profile
}

type profile struct {
	drv drivers.Driver
	n   int
}

// New returns an empty pool over mode, per sessions to a profile.
func New(mode drivers.Mode, per int) *Pool { return &Pool{mode: mode, per: per} }

// Place finds a profile with room, opening a new one when all are full, and
// counts the session in.
func (p *Pool) Place(ctx context.Context) (int, drivers.Driver, *messages.Error) {
	for i, pr := range p.profiles {
		if pr.n < p.per {
			pr.n++
			return i, pr.drv, nil
		}
	}
	if len(p.profiles) >= p.mode.Capacity() {
		return 0, nil, messages.Errorf(messages.CodeTooManySessions,
			"All %d browser sessions are in use; release one (`buddi release CONV`) and try again.", p.mode.Capacity()*p.per)
	}
	drv, err := p.mode.Open(ctx, len(p.profiles))
	if err != nil {
		return 0, nil, &messages.Error{Code: messages.CodeNoBrowser, Message: err.Error()}
	}
	p.profiles = append(p.profiles, &profile{drv: drv, n: 1})
	return len(p.profiles) - 1, drv, nil
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
