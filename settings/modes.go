package settings

import (
	"context"
	"runtime"
	"sync"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// Modes is the install's mode as the controller sees it: one of the modes
// this install offers, switched only with no session open (the controller
// closes every browser before it asks for a switch). The modes the
// specification names that this build does not have are listed as not
// available, never faked.
type Modes struct {
	mu    sync.Mutex
	cur   drivers.Mode
	modes map[string]drivers.Mode // the modes this install offers, by name
	why   map[string]string       // why a known mode is not offered, found when buddi started
}

var (
	_ drivers.Rooted = (*Modes)(nil)
	_ drivers.Served = (*Modes)(nil)
)

// NewModes offers modes, in start; why says why a known mode that is not
// offered is not (found when buddi started), by name.
func NewModes(modes map[string]drivers.Mode, start string, why map[string]string) *Modes {
	return &Modes{cur: modes[start], modes: modes, why: why}
}

// known is what the settings page says of a mode.
type known struct{ name, label, missing string }

// knownModes lists every mode in the order the settings page shows them;
// missing says why a mode this build lacks is not available.
func knownModes() []known {
	computer := "no computer-control helper was found next to buddi."
	if runtime.GOOS != "darwin" && runtime.GOOS != "linux" {
		computer = "it works only on macOS and on Linux desktops."
	}
	return []known{
		{"playwright", "Give agents their own browser (Playwright)", ""},
		{"extension", "Your browser (the Chrome extension)", ""},
		{"computer", "Use my apps (computer control)", computer},
		{"sim", "A simulated browser (tests and load)", "it exists only in test and load-test installs."},
	}
}

// missing says why the known mode k is not offered.
func (r *Modes) missing(k known) string {
	if w := r.why[k.name]; w != "" {
		return w
	}
	return k.missing
}

// Current is the mode in use.
func (r *Modes) Current() drivers.Mode {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cur
}

// Name is the current mode's.
func (r *Modes) Name() string { return r.Current().Name() }

// Capacity is the current mode's.
func (r *Modes) Capacity() int { return r.Current().Capacity() }

// Open opens a profile of the current mode.
func (r *Modes) Open(ctx context.Context, i int) (drivers.Driver, error) {
	return r.Current().Open(ctx, i)
}

// Status is the current mode's.
func (r *Modes) Status(ctx context.Context) drivers.Status { return r.Current().Status(ctx) }

// Close closes the current mode's browsers.
func (r *Modes) Close(ctx context.Context) error { return r.Current().Close(ctx) }

// ServedOrigins are the origins every offered mode serves itself.
func (r *Modes) ServedOrigins() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, m := range r.modes {
		if s, ok := m.(drivers.Served); ok {
			out = append(out, s.ServedOrigins()...)
		}
	}
	return out
}

// Offers reports whether the install offers the mode.
func (r *Modes) Offers(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.modes[name] != nil
}

// use makes the offered mode name current; the caller has closed the
// browsers of the one before.
func (r *Modes) use(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if m := r.modes[name]; m != nil {
		r.cur = m
	}
}

// choices is every mode as the settings page lists it.
func (r *Modes) choices() []messages.ModeChoice {
	var out []messages.ModeChoice
	for _, k := range knownModes() {
		ok := r.Offers(k.name)
		if k.name == "sim" && !ok {
			continue // a test mode is not worth a line on a real install
		}
		c := messages.ModeChoice{Name: k.name, Label: k.label, Available: ok}
		if !ok {
			c.Why = r.missing(k)
		}
		out = append(out, c)
	}
	return out
}

// refusal says why the install cannot switch to name, or nil.
func (r *Modes) refusal(name string) *messages.Error {
	if r.Offers(name) {
		return nil
	}
	for _, k := range knownModes() {
		if k.name == name {
			return messages.NotAvailable(k.label, r.missing(k))
		}
	}
	return messages.Errorf(messages.CodeBadInput, "%q is not a mode; use playwright, extension or computer.", messages.Clip(name, 60))
}
