package native

import (
	"context"
	"fmt"
	"sync"

	"github.com/buddi-dev/buddi/drivers"
)

// Name is the mode's name in settings, /healthz and browser.status.
const Name = "computer"

// Mode is "Use my apps": one driver, since there is one desktop.
type Mode struct {
	cfg Config

	mu  sync.Mutex
	drv *Driver
}

var _ drivers.Mode = (*Mode)(nil)

// NewMode returns the mode; nothing runs until a call.
func NewMode(cfg Config) *Mode { return &Mode{cfg: cfg} }

// Available reports whether the helper at cfg.Helper runs here and finds
// what the mode needs (a display and the accessibility bus on Linux, the
// permissions on macOS), with the reason when it does not.
func Available(ctx context.Context, cfg Config) (bool, string) {
	p, err := cfg.client().Probe(ctx)
	if err != nil {
		return false, sentence(err)
	}
	if !p.Ready {
		return false, problem(p)
	}
	return true, ""
}

// Name is "computer".
func (m *Mode) Name() string { return Name }

// Capacity is one driver: there is one desktop.
func (m *Mode) Capacity() int { return 1 }

// Open returns the one driver.
func (m *Mode) Open(_ context.Context, i int) (drivers.Driver, error) {
	if i != 0 {
		return nil, fmt.Errorf("use my apps has one desktop of %d sessions", drivers.PerProfile)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.drv == nil {
		m.drv = New(m.cfg)
	}
	return m.drv, nil
}

// Status is the helper's probe.
func (m *Mode) Status(ctx context.Context) drivers.Status { return New(m.cfg).Status(ctx) }

// Close ends every conversation's hold; no app or window closes.
func (m *Mode) Close(context.Context) error {
	m.mu.Lock()
	drv := m.drv
	m.drv = nil
	m.mu.Unlock()
	if drv != nil {
		return drv.Close()
	}
	return nil
}
