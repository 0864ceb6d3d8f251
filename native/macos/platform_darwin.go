package macos

import (
	"context"

	"golang.org/x/sys/unix"

	"github.com/buddi-dev/buddi/native/helper"
	"github.com/buddi-dev/buddi/native/protocol"
)

var _ helper.Platform = (*Platform)(nil)

// Platform is the macOS helper's view of the Mac.
type Platform struct{}

// New returns the Platform; the frameworks load on first use.
func New() *Platform { return &Platform{} }

// axTimeout bounds every Accessibility call to another app.
const axTimeout = 2.5

// ready loads the frameworks and checks the system is one the mode supports.
func (p *Platform) ready() error {
	version, _ := unix.Sysctl("kern.osproductversion")
	if !macOSSupported(version) {
		return protocol.Errorf(protocol.CodeUnsupportedPlatform, "Computer control needs macOS 14 or newer, and this Mac runs %s.", version)
	}
	if err := load(); err != nil {
		return protocol.Errorf(protocol.CodeUnsupportedPlatform, "The helper could not load the macOS frameworks it needs.").WithDetail(err)
	}
	return nil
}

// trusted checks the Accessibility grant without prompting.
func (p *Platform) trusted() error {
	if err := p.ready(); err != nil {
		return err
	}
	if !axIsProcessTrusted() {
		return protocol.Errorf(protocol.CodeNoAccessibility, "The helper has no Accessibility permission; use Check permissions in buddi's settings, grant it in System Settings → Privacy & Security → Accessibility, and try again.")
	}
	return nil
}

// Focused returns the focused window of the frontmost application.
func (p *Platform) Focused(ctx context.Context) (helper.Window, error) {
	if err := p.trusted(); err != nil {
		return nil, err
	}
	sys := axUIElementCreateSystemWide()
	axUIElementSetMessagingTimeout(sys, axTimeout)
	app, err := attr(sys, "AXFocusedApplication")
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeNoFocusedWindow, "No application has keyboard focus; open the app, or take over and click into its window.").WithDetail(err)
	}
	var pid int32
	if code := axUIElementGetPid(app, &pid); code != axSuccess {
		return nil, protocol.Errorf(protocol.CodeNoFocusedWindow, "The focused application went away while the helper looked at it; observe again.").WithDetail(axError{"reading its pid", code})
	}
	win, err := attr(app, "AXFocusedWindow")
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeNoFocusedWindow, "The focused application has no focused window (it may be minimised or show only a menu); take over and click into its window.").WithDetail(err)
	}
	return newWindow(win, pid)
}

// AppByID returns the installed app with this bundle id.
func (p *Platform) AppByID(_ context.Context, id string) (protocol.App, bool, error) {
	if err := p.ready(); err != nil {
		return protocol.App{}, false, err
	}
	a, ok := installedApp(id)
	return a, ok, nil
}

// AppsNamed asks Spotlight for applications with this display name.
func (p *Platform) AppsNamed(ctx context.Context, name string) ([]protocol.App, error) {
	if err := p.ready(); err != nil {
		return nil, err
	}
	return searchApps(ctx, name)
}

// Activate brings the app forward, launching it when it is not running.
func (p *Platform) Activate(ctx context.Context, a protocol.App) (bool, error) {
	if err := p.ready(); err != nil {
		return false, err
	}
	if activateRunning(a.ID) {
		return false, nil
	}
	return true, launch(ctx, a.ID)
}

// OpenURL opens url in a new tab of the browser app.
func (p *Platform) OpenURL(ctx context.Context, browser protocol.App, url string) error {
	if err := p.ready(); err != nil {
		return err
	}
	return openURL(ctx, browser.ID, url)
}
