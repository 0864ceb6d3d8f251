package drivers

import (
	"context"
	"io"

	"github.com/buddi-dev/buddi/messages"
)

// PerProfile is how many sessions share one driver (one browser profile).
const PerProfile = 8

// Mode is how this install's agents reach pages: one value per install,
// built from the configuration (playwright, or sim for tests and load; later
// extension and computer). The controller opens a profile's driver when a
// session needs room and closes them all when it stops.
type Mode interface {
	// Name is the mode as /healthz and browser.status report it.
	Name() string
	// Capacity is how many profiles the mode can open, each holding
	// PerProfile sessions.
	Capacity() int
	// Open returns profile i's driver (0 ≤ i < Capacity), starting what it
	// needs. Opening the same profile twice returns the same driver.
	Open(ctx context.Context, profile int) (Driver, error)
	// Status reports what the mode would use, without starting anything.
	Status(ctx context.Context) Status
	// Close releases every driver the mode opened, within ctx: when ctx ends
	// first it returns ctx's error and the rest is released in the background.
	Close(ctx context.Context) error
}

// AgentProfiles is an optional capability of a Mode: a browser profile of
// each agent's own (its own cookies, storage and logins), for owners who
// keep agents apart (BUDDI_BROWSER_PROFILES=agent). Each holds PerProfile
// of that agent's sessions; at most AgentCapacity are open at once.
type AgentProfiles interface {
	// OpenAgent returns the agent's profile's driver, starting what it needs
	// (the browser launches on first use). Opening it twice returns the same
	// driver; opening it while it closes waits for the close.
	OpenAgent(ctx context.Context, agent string) (Driver, error)
	// CloseAgent starts releasing the agent's profile and returns without
	// waiting for the browser to close (a later OpenAgent of the agent
	// waits for it). The profile's data stays on disk.
	CloseAgent(ctx context.Context, agent string) error
	// DropAgent closes the agent's profile, as CloseAgent does, and then
	// deletes its data (cookies, storage, logins): the agent was removed.
	DropAgent(ctx context.Context, agent string) error
	// AgentCapacity is how many agents' profiles may be open at once.
	AgentCapacity() int
}

// AgentProfilesOf returns mode's per-agent profiles, if it has them.
func AgentProfilesOf(mode Mode) (AgentProfiles, bool) {
	a, ok := Current(mode).(AgentProfiles)
	return a, ok
}

// Rooted is a mode that stands for another, the one in use now (the
// daemon's mode root, which the owner switches). Its optional capabilities
// (Logins, Installer, AgentProfiles) are that mode's: reach them through
// Current.
type Rooted interface {
	Mode
	Current() Mode
}

// Current is the mode in use behind mode: mode itself unless it is Rooted.
func Current(mode Mode) Mode {
	for {
		r, ok := mode.(Rooted)
		if !ok {
			return mode
		}
		mode = r.Current()
	}
}

// ScreencastOf returns tabs' screencast source, if its driver has one.
func ScreencastOf(tabs Tabs) (Screencaster, bool) {
	s, ok := tabs.(Screencaster)
	return s, ok
}

// RawInputOf returns a pinned page's raw input, if its driver has it.
func RawInputOf(p Pinned) (RawInput, bool) {
	r, ok := p.(RawInput)
	return r, ok
}

// FitterOf returns a pinned page's Fitter, if its driver has one.
func FitterOf(p Pinned) (Fitter, bool) {
	f, ok := p.(Fitter)
	return f, ok
}

// Offline is an optional capability of a Driver: saying, without waiting
// on anything, that the browser it drives is not connected now (Your
// browser with the extension offline). A take-over then says so.
type Offline interface {
	Offline() bool
}

// IsOffline reports whether d says its browser is not connected now.
func IsOffline(d Driver) bool {
	o, ok := d.(Offline)
	return ok && o.Offline()
}

// AppFinder is an optional capability of a Mode: naming the one installed
// app called name (exactly, in any case), so that what the owner is asked
// about is an app as found on this machine. It launches nothing. None is
// refused with messages.CodeAppNotFound, several with
// messages.CodeAppAmbiguous and a sentence listing them.
type AppFinder interface {
	FindApp(ctx context.Context, name string) (App, error)
}

// App is an installed app as the machine names it.
type App struct {
	ID   string // a bundle id on macOS, a desktop file id on Linux
	Name string // its name as installed
}

// AppFinderOf returns the finder of the mode in use behind mode, if it has one.
func AppFinderOf(mode Mode) (AppFinder, bool) {
	f, ok := Current(mode).(AppFinder)
	return f, ok
}

// Served is an optional capability of a Mode: the loopback origins it
// serves itself (the simulated site). The daemon adds them to the owner's
// preview origins, so the real URL rules let them through and nothing else.
type Served interface {
	ServedOrigins() []string
}

// Logins is an optional capability of a Mode: the sites that hold logins
// (cookies, or data they stored) in its browser profile, and signing out of
// them. Either may start the browser first.
type Logins interface {
	// Logins lists the sites, by site.
	Logins(ctx context.Context) (messages.Logins, error)
	// SignOut clears one site's cookies and stored data, or every site's
	// when site is "", and names the sites it cleared.
	SignOut(ctx context.Context, site string) ([]string, error)
}

// Installer is an optional capability of a Mode: installing the browser it
// launches. Progress lines go to progress.
type Installer interface {
	Install(ctx context.Context, progress io.Writer) error
}
