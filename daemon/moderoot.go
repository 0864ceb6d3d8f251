package daemon

import (
	"context"
	"runtime"
	"sync"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// modeRoot is the install's mode as the controller sees it: one of the
// modes this install offers, switched only with no session open (the
// controller closes every browser before it asks for a switch). The modes
// the specification names that this build does not have yet are listed as
// not available, never faked.
type modeRoot struct {
	mu    sync.Mutex
	cur   drivers.Mode
	modes map[string]drivers.Mode // the modes this install offers, by name
	why   map[string]string       // why a known mode is not offered, found when buddi started
}

var (
	_ drivers.Rooted = (*modeRoot)(nil)
	_ drivers.Served = (*modeRoot)(nil)
)

// Current is the mode in use.
func (r *modeRoot) Current() drivers.Mode { return r.current() }

// modeInfo is what the settings page says of a mode.
type modeInfo struct{ name, label, missing string }

// knownModes lists every mode in the order the settings page shows them;
// missing says why a mode this build lacks is not available.
func knownModes() []modeInfo {
	computer := "no computer-control helper was found next to buddi."
	if runtime.GOOS != "darwin" && runtime.GOOS != "linux" {
		computer = "it works only on macOS and on Linux desktops."
	}
	return []modeInfo{
		{"playwright", "Give agents their own browser (Playwright)", ""},
		{"extension", "Your browser (the Chrome extension)", ""},
		{"computer", "Use my apps (computer control)", computer},
		{"sim", "A simulated browser (tests and load)", "it exists only in test and load-test installs."},
	}
}

func newModeRoot(modes map[string]drivers.Mode, start string) *modeRoot {
	return &modeRoot{cur: modes[start], modes: modes, why: map[string]string{}}
}

// missing says why the known mode k is not offered.
func (r *modeRoot) missing(k modeInfo) string {
	if w := r.why[k.name]; w != "" {
		return w
	}
	return k.missing
}

func (r *modeRoot) current() drivers.Mode {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cur
}

// Name is the current mode's.
func (r *modeRoot) Name() string { return r.current().Name() }

// Capacity is the current mode's.
func (r *modeRoot) Capacity() int { return r.current().Capacity() }

// Open opens a profile of the current mode.
func (r *modeRoot) Open(ctx context.Context, i int) (drivers.Driver, error) {
	return r.current().Open(ctx, i)
}

// Status is the current mode's.
func (r *modeRoot) Status(ctx context.Context) drivers.Status { return r.current().Status(ctx) }

// Close closes the current mode's browsers.
func (r *modeRoot) Close(ctx context.Context) error { return r.current().Close(ctx) }

// ServedOrigins are the origins every offered mode serves itself.
func (r *modeRoot) ServedOrigins() []string {
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

// offers reports whether the install offers the mode.
func (r *modeRoot) offers(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.modes[name] != nil
}

// use makes the offered mode name current; the caller has closed the
// browsers of the one before.
func (r *modeRoot) use(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if m := r.modes[name]; m != nil {
		r.cur = m
	}
}

// replace puts m in the place of the mode of its name (the Playwright mode
// after its browser settings changed), current if that one was.
func (r *modeRoot) replace(m drivers.Mode) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cur == r.modes[m.Name()] {
		r.cur = m
	}
	r.modes[m.Name()] = m
}

// choices is every mode as the settings page lists it.
func (r *modeRoot) choices() []messages.ModeChoice {
	var out []messages.ModeChoice
	for _, k := range knownModes() {
		ok := r.offers(k.name)
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
func (r *modeRoot) refusal(name string) *messages.Error {
	if r.offers(name) {
		return nil
	}
	for _, k := range knownModes() {
		if k.name == name {
			return messages.NotAvailable(k.label, r.missing(k))
		}
	}
	return messages.Errorf(messages.CodeBadInput, "%q is not a mode; use playwright, extension or computer.", clip(name))
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
