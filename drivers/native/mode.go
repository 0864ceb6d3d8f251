package native

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/native/protocol"
)

// Name is the mode's name in settings, /healthz and browser.status.
const Name = "computer"

// Mode is "Use my apps": one driver, since there is one desktop.
type Mode struct {
	cfg Config

	mu  sync.Mutex
	drv *Driver
}

var (
	_ drivers.Mode      = (*Mode)(nil)
	_ drivers.AppFinder = (*Mode)(nil)
)

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

// FindApp names the one installed app called name through the helper's
// find, which starts nothing and gives up after protocol.NameSearchTimeout.
func (m *Mode) FindApp(ctx context.Context, name string) (drivers.App, error) {
	if e := protocol.CheckAppName(name); e != nil {
		return drivers.App{}, drivers.Errorf(drivers.CodeBadInput, e, "%s", e.Message)
	}
	app, err := m.cfg.client().Find(ctx, name)
	var e *protocol.Error
	if errors.As(err, &e) && e.Code == protocol.CodeAppAmbiguous && len(e.Candidates) > 0 {
		return drivers.App{}, drivers.Errorf(messages.CodeAppAmbiguous, err,
			"Several installed apps are named %q: %s; open the one you mean by its appId.", name, candidates(e.Candidates))
	}
	if err != nil {
		return drivers.App{}, failure(err, false, false)
	}
	return drivers.App{ID: app.ID, Name: app.Name}, nil
}

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

// Permissions asks the helper what the mode needs and has, as the owner
// reads it; with request it first asks the system for what is missing (on
// macOS, the system's prompts). The probe alone never prompts.
func Permissions(ctx context.Context, cfg Config, request bool) messages.Permissions {
	v := messages.Permissions{Helper: cfg.Helper, Checks: []messages.PermissionCheck{}}
	c := cfg.client()
	probe := c.Probe
	if request {
		probe = c.RequestPermissions
	}
	p, err := probe(ctx)
	if err != nil {
		v.Text = sentence(err)
		return v
	}
	v.Platform, v.Ready = p.Platform, p.Ready
	for _, c := range p.Checks {
		v.Checks = append(v.Checks, messages.PermissionCheck{Name: c.Name, OK: c.OK, Detail: c.Detail})
	}
	switch {
	case p.Ready:
		v.Text = "The helper has everything Use my apps needs here."
	case p.Platform == "macos":
		v.Text = problem(p) + " After granting, restart buddi and check again."
	default:
		v.Text = problem(p)
	}
	return v
}
