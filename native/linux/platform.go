package linux

import (
	"context"
	"os"
	"strings"

	"github.com/buddi-dev/buddi/native/helper"
	"github.com/buddi-dev/buddi/native/protocol"
)

var _ helper.Platform = (*Platform)(nil)

// Platform is the Linux helper's view of the desktop: the X display, the
// accessibility bus and the installed apps. It connects lazily and serves
// one call.
type Platform struct {
	getenv  func(string) string
	display *display
	a11y    *bus
	entries []entry
	scanned bool
}

// New returns a Platform for the desktop the process's environment names
// (DISPLAY, DBUS_SESSION_BUS_ADDRESS or AT_SPI_BUS_ADDRESS, XDG_DATA_DIRS).
func New() *Platform { return &Platform{getenv: os.Getenv} }

// Close ends the connections the call opened.
func (p *Platform) Close() error {
	if p.display != nil {
		p.display.close()
	}
	if p.a11y != nil {
		p.a11y.close()
	}
	return nil
}

func (p *Platform) x() (*display, error) {
	if p.display == nil {
		d, err := dialDisplay(p.getenv("DISPLAY"))
		if err != nil {
			return nil, err
		}
		p.display = d
	}
	return p.display, nil
}

func (p *Platform) bus(ctx context.Context) (*bus, error) {
	if p.a11y == nil {
		b, err := dialBus(ctx)
		if err != nil {
			return nil, err
		}
		p.a11y = b
	}
	return p.a11y, nil
}

// apps lists the installed applications once per call.
func (p *Platform) apps(ctx context.Context) ([]entry, error) {
	if !p.scanned {
		e, err := scanApps(ctx, dataDirs(p.getenv))
		if err != nil {
			return nil, err
		}
		p.entries, p.scanned = e, true
	}
	return p.entries, nil
}

// Focused returns the window that has keyboard focus.
func (p *Platform) Focused(ctx context.Context) (helper.Window, error) {
	d, err := p.x()
	if err != nil {
		return nil, err
	}
	w, err := d.focusedClient()
	if err != nil {
		return nil, err
	}
	return p.describe(ctx, d, w)
}

func app(e entry) protocol.App { return protocol.App{ID: e.ID, Name: e.Name, Path: e.Path} }

// AppByID returns the installed app whose desktop file id is id.
func (p *Platform) AppByID(ctx context.Context, id string) (protocol.App, bool, error) {
	apps, err := p.apps(ctx)
	if err != nil {
		return protocol.App{}, false, err
	}
	for _, e := range apps {
		if e.ID == id {
			return app(e), true, nil
		}
	}
	return protocol.App{}, false, nil
}

// AppsNamed returns the apps shown in menus whose Name is name in any case.
func (p *Platform) AppsNamed(ctx context.Context, name string) ([]protocol.App, error) {
	apps, err := p.apps(ctx)
	if err != nil {
		return nil, err
	}
	var out []protocol.App
	for _, e := range apps {
		if !e.NoDisplay && strings.EqualFold(e.Name, name) {
			out = append(out, app(e))
		}
	}
	return out, nil
}

// Activate raises a window of the app when one is mapped, else starts it.
func (p *Platform) Activate(ctx context.Context, a protocol.App) (bool, error) {
	d, err := p.x()
	if err != nil {
		return false, err
	}
	for _, w := range d.clients() {
		win, _, err := p.identify(ctx, d, w)
		if err == nil && win.info.AppID == a.ID {
			return false, d.raise(w)
		}
	}
	e, err := p.entry(ctx, a.ID)
	if err != nil {
		return false, err
	}
	return true, start(e, "")
}

// OpenURL runs the browser's Exec line with the URL, which opens it in a
// new tab of the running browser, in its own profile.
func (p *Platform) OpenURL(ctx context.Context, browser protocol.App, url string) error {
	e, err := p.entry(ctx, browser.ID)
	if err != nil {
		return err
	}
	return start(e, url)
}

func (p *Platform) entry(ctx context.Context, id string) (entry, error) {
	apps, err := p.apps(ctx)
	if err != nil {
		return entry{}, err
	}
	for _, e := range apps {
		if e.ID == id {
			return e, nil
		}
	}
	return entry{}, protocol.Errorf(protocol.CodeAppNotFound, "No app with the id %s is installed on this computer.", id)
}
