package extension

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/buddi-dev/buddi/drivers"
)

// Mode is Your browser: one Chrome, the owner's, holding PerProfile
// conversations.
type Mode struct {
	cfg Config
	mu  sync.Mutex
	drv *Driver
}

var _ drivers.Mode = (*Mode)(nil)

// NewMode returns the mode; nothing is sent to the extension until a
// session opens.
func NewMode(cfg Config) *Mode { return &Mode{cfg: cfg} }

// Name is "extension".
func (m *Mode) Name() string { return Name }

// Capacity is one profile: the owner's Chrome.
func (m *Mode) Capacity() int { return 1 }

// Open returns the one driver.
func (m *Mode) Open(_ context.Context, i int) (drivers.Driver, error) {
	if i != 0 {
		return nil, fmt.Errorf("your browser holds %d sessions, in one profile", drivers.PerProfile)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.drv == nil {
		m.drv = New(m.cfg)
	}
	return m.drv, nil
}

// Status asks the extension how it is, briefly.
func (m *Mode) Status(ctx context.Context) drivers.Status { return status(ctx, m.cfg.Caller) }

// Close closes every conversation's tabs.
func (m *Mode) Close(ctx context.Context) error {
	m.mu.Lock()
	drv := m.drv
	m.drv = nil
	m.mu.Unlock()
	if drv == nil {
		return nil
	}
	done := make(chan error, 1)
	go func() { done <- drv.Close() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("closing the agents' tabs in your browser did not finish in time: %w", ctx.Err())
	}
}

// status is the extension's answer to status, as the contract says it.
func status(ctx context.Context, c Caller) drivers.Status {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	st := drivers.Status{Driver: Name, Browser: "your Chrome, through the buddi extension"}
	raw, e := c.Call(ctx, "status", nil)
	if e != nil {
		st.Problem = e.Message
		return st
	}
	var s struct {
		Version string `json:"version"`
	}
	_ = json.Unmarshal(raw, &s)
	st.Found, st.Running = true, true
	if s.Version != "" {
		st.Browser += " " + s.Version
	}
	return st
}
