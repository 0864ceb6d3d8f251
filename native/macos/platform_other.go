//go:build !darwin

package macos

import (
	"context"

	"github.com/buddi-dev/buddi/native/helper"
	"github.com/buddi-dev/buddi/native/protocol"
)

var _ helper.Platform = (*Platform)(nil)

// Platform is the macOS platform built for another system: it refuses
// every call; the helper binary answers, but says where it runs.
type Platform struct{}

// New returns the refusing Platform.
func New() *Platform { return &Platform{} }

func unsupported() error {
	return protocol.Errorf(protocol.CodeUnsupportedPlatform, "This helper controls a Mac and runs only on macOS 14 or newer.")
}

// Probe says the mode cannot be offered here.
func (p *Platform) Probe(context.Context) protocol.Permissions {
	return protocol.Permissions{Platform: "macos", Checks: []protocol.Check{{Name: "system", Detail: "This helper runs only on macOS 14 or newer."}}}
}

// RequestPermissions has nothing to ask for here.
func (p *Platform) RequestPermissions(ctx context.Context) protocol.Permissions { return p.Probe(ctx) }

// Focused refuses.
func (p *Platform) Focused(context.Context) (helper.Window, error) { return nil, unsupported() }

// AppByID refuses.
func (p *Platform) AppByID(context.Context, string) (protocol.App, bool, error) {
	return protocol.App{}, false, unsupported()
}

// AppsNamed refuses.
func (p *Platform) AppsNamed(context.Context, string) ([]protocol.App, error) {
	return nil, unsupported()
}

// Activate refuses.
func (p *Platform) Activate(context.Context, protocol.App) (bool, error) { return false, unsupported() }

// OpenURL refuses.
func (p *Platform) OpenURL(context.Context, protocol.App, string) error { return unsupported() }
