package linux

import (
	"context"

	"github.com/godbus/dbus/v5"

	"github.com/buddi-dev/buddi/native/helper"
	"github.com/buddi-dev/buddi/native/protocol"
)

// Probe reports whether there is an X display with XTEST and a reachable
// accessibility bus: the mode is offered only where both are. It prompts
// for nothing and changes nothing.
func (p *Platform) Probe(ctx context.Context) protocol.Permissions {
	perm := protocol.Permissions{Platform: "linux-x11"}
	display := protocol.Check{Name: "display", OK: true, Detail: "The X display " + p.getenv("DISPLAY") + " answers."}
	input := protocol.Check{Name: "input", OK: true, Detail: "The X server has XTEST, so the helper can click and type."}
	capture := protocol.Check{Name: "screen_capture", OK: true, Detail: "X lets the helper read the focused window's pixels."}
	if d, err := p.x(); err != nil {
		display = protocol.Check{Name: "display", Detail: helper.Sentence(err)}
		if p.getenv("WAYLAND_DISPLAY") != "" {
			display.Detail = "This is a Wayland session without an X display; computer control needs X11 (or XWayland apps)."
		}
		input.OK, input.Detail = false, "Input needs an X display."
		capture.OK, capture.Detail = false, "Capture needs an X display."
	} else if !d.xtest {
		input = protocol.Check{Name: "input", Detail: "The X server has no XTEST extension, so the helper cannot click or type."}
	}
	access := protocol.Check{Name: "accessibility", OK: true, Detail: "The accessibility bus (AT-SPI) answers."}
	if b, err := p.bus(ctx); err != nil {
		access = protocol.Check{Name: "accessibility", Detail: helper.Sentence(err)}
	} else if _, err := b.children(ctx, ref{registryName, rootPath}); err != nil {
		access = protocol.Check{Name: "accessibility", Detail: "The accessibility bus answers but its registry does not; restart the desktop session's accessibility services."}
	}
	perm.Checks = []protocol.Check{display, input, capture, access}
	perm.Ready = display.OK && input.OK && capture.OK && access.OK
	return perm
}

// RequestPermissions switches accessibility on for the session
// (org.a11y.Status.IsEnabled), which apps started afterwards read, and
// probes again. Linux has no permission prompt.
func (p *Platform) RequestPermissions(ctx context.Context) protocol.Permissions {
	if sess, err := sessionBus(ctx); err == nil {
		_ = sess.Object("org.a11y.Bus", "/org/a11y/bus").SetProperty("org.a11y.Status.IsEnabled", dbus.MakeVariant(true))
		_ = sess.Close()
	}
	return p.Probe(ctx)
}
